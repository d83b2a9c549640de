// bench/results.json (everything measured) and bench/results.md (the table, judged against issue 7);
// a run narrowed with BENCH_FAMILIES writes bench/results.partial.json and .md instead, leaving the full run's.
import { writeFileSync } from 'node:fs';
import type { Family } from './families.ts';
import type { LoadResult } from './load.ts';
import type { ProbeResult } from './probe.ts';
import { CARD_FLOOR_TARGET, POSTGRAPHILE_TARGET } from './peers/rows.ts';
import type { PeerFigures, PeerResult } from './peers/run-peers.ts';
import { ROLLUP_REFRESH_MINUTES } from '../src/stores/rollups/store-rollups.ts';

export interface FamilyResult {
  family: Family;
  loaded: LoadResult;
  single: LoadResult;
  probe: ProbeResult;
  /** the first request of each freshly started service, in ms (families with firstAfterRestart) */
  firstAfterRestartMs?: number[];
}

export interface Report {
  started: string;
  command: string;
  commit: string;
  workingTree: string;
  machine: string;
  databaseUrl: string;
  /** stores in the catalog measured */
  stores: number;
  results: FamilyResult[];
  /** the service (response cache off) beside PostGraphile 5 and the hand-written floor on the same database */
  peers: PeerResult[];
  /** the services ran with RESPONSE_CACHE_TTL_MS=0: every request went through the database */
  responseCacheOff: boolean;
  /** the rollup refresh the bench ran before the timed runs (the job worker's, every ROLLUP_REFRESH_MINUTES) */
  rollupRefreshMs: number;
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(n < 10 ? 2 : 1) : '-');
const int = (n: number) => Math.round(n).toLocaleString('en-US');

const slowestFirst = (r: FamilyResult) =>
  r.firstAfterRestartMs?.length ? Math.max(...r.firstAfterRestartMs) : Number.NaN;

function verdict(result: FamilyResult): string {
  const { family, loaded, single } = result;
  const p50 = family.target.p50From === 'loaded' ? loaded.p50Ms : single.p50Ms;
  const misses: string[] = [];
  if (!(p50 <= family.target.p50Ms)) misses.push(`p50 ${ms(p50)} > ${family.target.p50Ms} ms`);
  const p99Target = family.target.p99Ms;
  if (p99Target !== undefined && !(single.p99Ms <= p99Target))
    misses.push(`1-conn p99 ${ms(single.p99Ms)} > ${p99Target} ms`);
  if (p99Target !== undefined && family.firstAfterRestart && !(slowestFirst(result) <= p99Target)) {
    misses.push(`first after restart ${ms(slowestFirst(result))} > ${p99Target} ms`);
  }
  if (family.target.minRps && !(loaded.rps >= family.target.minRps))
    misses.push(`${int(loaded.rps)} < ${int(family.target.minRps)} req/s`);
  if (loaded.non2xx || loaded.errors || single.non2xx || single.errors)
    misses.push('errors or non-2xx');
  return misses.length ? `MISSED (${misses.join('; ')})` : 'met';
}

const targetText = ({ target, firstAfterRestart }: Family) =>
  `p50 ≤ ${target.p50Ms} ms${target.minRps ? `, ≥ ${int(target.minRps)} req/s` : ''} (${target.p50From === 'loaded' ? 'loaded run' : '1 connection'})` +
  (target.p99Ms !== undefined
    ? `, 1-conn p99 ≤ ${target.p99Ms} ms${firstAfterRestart ? ' and the first request after a restart' : ''}`
    : '');

export function writeReport(report: Report, out = 'bench/results'): void {
  writeFileSync(
    `${out}.json`,
    `${JSON.stringify(
      {
        ...report,
        results: report.results.map((result) => ({
          family: result.family.name,
          route: result.family.route,
          target: result.family.target,
          verdict: verdict(result),
          rotatingPaths: result.family.paths.length,
          loaded: result.loaded,
          single: result.single,
          firstAfterRestartMs: result.firstAfterRestartMs,
          statementsPerRequest: result.probe.statements,
          dbExecutionMs: result.probe.dbExecutionMs,
          dbPlanningMs: result.probe.dbPlanningMs,
          probeFailures: result.probe.failures,
          statements: result.probe.sample.map((s) => s.text),
        })),
        peerTargets: { postgraphile: POSTGRAPHILE_TARGET, cardFloor: CARD_FLOOR_TARGET },
        peers: report.peers.map((p) => ({ ...p, verdict: peerVerdict(p) })),
      },
      null,
      2,
    )}\n`,
  );

  const lines = [
    `# Bench results at ${report.stores.toLocaleString('en-US')} stores`,
    '',
    `- run: ${report.started}, commit ${report.commit} (working tree: ${report.workingTree})`,
    `- command: \`${report.command}\``,
    `- machine: ${report.machine}`,
    `- database: ${report.databaseUrl}`,
    `- maintenance: the rollup refresh the job worker runs every ${ROLLUP_REFRESH_MINUTES} minutes took ${(report.rollupRefreshMs / 1000).toFixed(1)} s; the bench ran it once before the timed runs, whose servers only serve requests`,
    '',
    '| family | paths | conns | req/s | p50 ms | p99 ms | 1-conn p50 ms | 1-conn p99 ms | first after restart ms | SQL stmts/req | DB exec ms (plan ms) | target | verdict |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    ...report.results.map((r) =>
      [
        '',
        r.family.name,
        r.family.paths.length,
        r.loaded.connections,
        int(r.loaded.rps),
        ms(r.loaded.p50Ms),
        ms(r.loaded.p99Ms),
        ms(r.single.p50Ms),
        ms(r.single.p99Ms),
        r.firstAfterRestartMs?.length ? r.firstAfterRestartMs.map(ms).join(', ') : '-',
        r.probe.statements,
        `${ms(r.probe.dbExecutionMs)} (${ms(r.probe.dbPlanningMs)})`,
        targetText(r.family),
        verdict(r),
        '',
      ]
        .join(' | ')
        .trim(),
    ),
    '',
    ...peerTable(report.peers),
    '## Simple routes: end-to-end p50 (1 connection) minus the database time (target ≤ 2 ms)',
    '',
    ...report.results
      .filter((r) =>
        ['store profile', 'filtered + sorted store search', 'analytics overview'].includes(
          r.family.name,
        ),
      )
      .map((r) => {
        const gap = r.single.p50Ms - (r.probe.dbExecutionMs + r.probe.dbPlanningMs);
        return `- ${r.family.name}: ${ms(r.single.p50Ms)} − ${ms(r.probe.dbExecutionMs + r.probe.dbPlanningMs)} = ${ms(gap)} ms → ${gap <= 2 ? 'met' : 'MISSED'}`;
      }),
    '',
    '## How the columns are measured',
    '',
    '- req/s, p50, p99: autocannon against the service started as `tsx app/main.ts` (DATABASE_URL, SEED_STORES=0, LOG_LEVEL=warn, a pro key from the keys CLI, its limits lifted with PLAN_LIMITS_JSON), as the API process of a deployment whose jobs run in `npm run worker` processes (WORKER_IN_PROCESS=false): the job worker\'s rollup refresh, run once before the timed runs (the maintenance line above), would otherwise take a core for most of a minute in whichever run it overlapped; after a warm-up; each connection walks a rotating list of real values from the catalog. Percentiles come from per-response hrtime durations. "1-conn" is the same family with one connection (latency without queueing on the 2 cores).',
    '- paths: the rotating requests of the family; the search families rotate through queries of every kind people type (test/support/search-queries.ts: brands, typos, prefixes, names, domains, domains without TLD, common words, three letters, nonsense for stores; words, pairs, titles, prefixes, typos, three letters, nonsense for titles). "first after restart": the first request of each of three freshly started services (new connections, nothing prepared or planned yet), each a different query of the family.',
    "- SQL stmts/req: a separate probe server with bench/record-sql.ts preloaded logs every statement any pg client sends (raw pool, Prisma's pool, access layer); the median count over five probed requests, job-queue polling excluded. pg_stat_statements is not preloaded on this PostgreSQL, and the timed runs carry no instrumentation. Each probed request is a response-cache miss (distinct parameters); a hit issues no statement.",
    report.responseCacheOff
      ? '- Response cache: off in this run (RESPONSE_CACHE_TTL_MS=0): every timed request runs the REST-through-GraphQL path and its SQL; the rows marked "response cache off" repeat that.'
      : '- Response cache: the timed runs use the service\'s default (catalog GET answers reused for up to RESPONSE_CACHE_TTL_MS = 10 s, src/http/response-cache.ts); the rows marked "response cache off" run a second service with RESPONSE_CACHE_TTL_MS=0, the REST-through-GraphQL path on every request. bench/results.uncached.md has every family with the cache off.',
    "- DB exec ms: each SELECT the first probed request issued, re-run with its own bind values under EXPLAIN (ANALYZE), median of 5, summed over the request's statements (an upper bound where the service runs them concurrently); plans are in bench/plans/.",
    "- Peers (bench/peers/): the service with RESPONSE_CACHE_TTL_MS=0, PostGraphile 5 (Amber preset, library mode on Node's http server, smart tags: the unique key stores.domain, the relation to legacy_store_summaries, and products.is_best_seller and best_seller_rank orderable) and the floor (Fastify + pg, one named prepared SELECT per route written for the purpose) on the same database, 10 connections each to PostgreSQL. For each row and connection count: a warm-up of each, then three runs strictly alternating service, PostGraphile, floor; each figure is the median of the three, and \"each round\" gives the service's req/s over each peer's in each of the three rounds, in order (the verdict reads the ratio of the medians). bench/peers/rows.ts holds the requests.",
    '- CPU ms/req: utime + stime from /proc over each run, of the server process (node) and of the PostgreSQL backends of its connections (pg_stat_activity by application_name on the bench database), divided by the requests answered; the load generator shares the 2 cores.',
    '',
  ];
  writeFileSync(`${out}.md`, lines.join('\n'));
}

const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '-');
const cpu = (f: PeerFigures) => `${ms(f.serverCpuMs)} / ${ms(f.postgresCpuMs)}`;

/**
 * The service's req/s over a peer's in each alternating round, in run order: the verdict reads the
 * ratio of the medians, and a row whose rounds straddle its target is not settled by one run.
 */
export function ratiosByRound(service: PeerFigures, peer: PeerFigures): string {
  return service.runs.map((run, i) => ratio(run.rps, peer.runs[i]?.rps ?? 0)).join(' ');
}

/** A peer row against the targets: met, or what it missed. */
export function peerVerdict(p: PeerResult): string {
  const misses: string[] = [];
  const ofPostGraphile = p.service.rps / p.postgraphile.rps;
  if (!(ofPostGraphile >= POSTGRAPHILE_TARGET))
    misses.push(`${ofPostGraphile.toFixed(2)}× PostGraphile < ${POSTGRAPHILE_TARGET}`);
  const ofFloor = p.service.rps / p.plain.rps;
  if (p.floorTarget !== undefined && !(ofFloor >= p.floorTarget))
    misses.push(`${ofFloor.toFixed(2)}× floor < ${p.floorTarget}`);
  return misses.length ? `MISSED (${misses.join('; ')})` : 'met';
}

function peerTable(peers: readonly PeerResult[]): string[] {
  if (peers.length === 0) return [];
  return [
    `## Against peers on the same database (response cache off; targets: ≥ ${POSTGRAPHILE_TARGET}× PostGraphile on every row at every connection count, ≥ ${CARD_FLOOR_TARGET}× the floor on both store cards)`,
    '',
    '| route | conns | service req/s | PostGraphile req/s | floor req/s | × PostGraphile | × floor | verdict | each round: × PostGraphile / × floor | p50 / p99 ms service | PostGraphile | floor | CPU ms/req node / Postgres: service | PostGraphile | floor |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...peers.map(
      (p) =>
        `| ${p.route} | ${p.connections} | ${int(p.service.rps)} | ${int(p.postgraphile.rps)} | ${int(p.plain.rps)} | ${ratio(p.service.rps, p.postgraphile.rps)} | ${ratio(p.service.rps, p.plain.rps)} | ${peerVerdict(p)} | ${ratiosByRound(p.service, p.postgraphile)} / ${ratiosByRound(p.service, p.plain)} | ${ms(p.service.p50Ms)} / ${ms(p.service.p99Ms)} | ${ms(p.postgraphile.p50Ms)} / ${ms(p.postgraphile.p99Ms)} | ${ms(p.plain.p50Ms)} / ${ms(p.plain.p99Ms)} | ${cpu(p.service)} | ${cpu(p.postgraphile)} | ${cpu(p.plain)} |`,
    ),
    ...(peers.some(
      (p) =>
        p.service.non2xx +
          p.service.errors +
          p.postgraphile.non2xx +
          p.postgraphile.errors +
          p.plain.non2xx +
          p.plain.errors >
        0,
    )
      ? [
          '',
          'Some runs had non-2xx answers or errors: see peers[].*.non2xx and errors in the JSON.',
        ]
      : []),
    '',
  ];
}
