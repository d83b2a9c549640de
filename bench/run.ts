// `npm run bench`: the service at catalog scale (issue 7). Seeds or reuses the 1M-store catalog,
// starts the service as a user would (tsx app/main.ts), probes each route family for its SQL
// (statements per request, EXPLAIN ANALYZE time), then drives it with autocannon family by family
// then beside its peers on the same database (PostGraphile 5 and a hand-written Fastify + pg floor,
// bench/peers/), and writes bench/results.json and bench/results.md.
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/bench_catalog_1m),
// BENCH_STORES (1,000,000), BENCH_DURATION_S (10), BENCH_WARMUP_S (3), BENCH_SINGLE_S (5), BENCH_FAMILIES (all): comma-separated
// parts of family names, e.g. BENCH_FAMILIES=profile to time the store profile only; BENCH_FAMILIES=peers runs the peer comparison alone;
// BENCH_PEER_ROWS (all): comma-separated parts of peer row names, e.g. BENCH_PEER_ROWS='card columns,without totalCount';
// BENCH_PORTS (any free port): a range such as 4700-4799 for the servers it starts.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BENCH_STORES, sampleCatalog, seedOrReuse } from './catalog.ts';
import { buildFamilies } from './families.ts';
import { drive } from './load.ts';
import { buildPeerRows } from './peers/rows.ts';
import { runPeers } from './peers/run-peers.ts';
import { explainText, probeFamily, type ProbeResult } from './probe.ts';
import { createBenchKey, revokeKey, startNode } from './processes.ts';
import { refreshRollups } from './rollups.ts';
import { benchServiceEnv } from './service-env.ts';
import { filterParts, isSelected } from './selection.ts';
import { codeUnderTest } from './code-under-test.ts';
import { writeReport, type FamilyResult } from './report.ts';

const databaseUrl =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_catalog_1m';
const durationS = Number(process.env.BENCH_DURATION_S ?? 10);
const warmupS = Number(process.env.BENCH_WARMUP_S ?? 3);
const singleS = Number(process.env.BENCH_SINGLE_S ?? 5);
const peerRowFilter = filterParts(process.env.BENCH_PEER_ROWS);
const familyFilter = filterParts(process.env.BENCH_FAMILIES);
const COOL_DOWN_MS = 6_000;
/** restarts of the service timed for their first request (families with firstAfterRestart) */
const RESTARTS = 3;
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const serviceEnv = benchServiceEnv(databaseUrl);

await seedOrReuse(databaseUrl, log);
const rollupRefreshMs = await refreshRollups(databaseUrl);
log(`refreshed the rollups in ${(rollupRefreshMs / 1000).toFixed(1)} s`);
const sample = await sampleCatalog(databaseUrl);
const allFamilies = buildFamilies(sample);
const families = allFamilies.filter((family) => isSelected(familyFilter, family.name));
// BENCH_FAMILIES=peers runs the peer comparison alone; any other narrowing leaves it out
const runPeersToo = familyFilter.length === 0 || familyFilter.includes('peers');
// the service's response cache is on by default, as users run it; RESPONSE_CACHE_TTL_MS=0 measures
// every request end to end through the database and writes its own results (results.uncached.*)
const cacheTtl = process.env.RESPONSE_CACHE_TTL_MS;
const cacheOff = cacheTtl !== undefined && Number(cacheTtl) === 0;
const out =
  familyFilter.length || peerRowFilter.length
    ? 'bench/results.partial'
    : cacheOff
      ? 'bench/results.uncached'
      : 'bench/results';
if (families.length === 0 && !runPeersToo)
  throw new Error(
    `BENCH_FAMILIES=${process.env.BENCH_FAMILIES} names none of: ${allFamilies.map((f) => f.name).join(', ')}`,
  );
const key = createBenchKey(databaseUrl);
const headers = { authorization: `Bearer ${key}` };
const started = new Date().toISOString();
const { commit, workingTree } = codeUnderTest();
const loadBefore = loadavg();

try {
  const results: FamilyResult[] = [];
  if (families.length > 0) {
    // 1. the probe: statements and database time per family, on a server that logs its SQL
    const sqlLog = join(tmpdir(), `bench-sql-${process.pid}.jsonl`);
    writeFileSync(sqlLog, '');
    const probe = await startNode(
      'app/main.ts',
      { ...serviceEnv, BENCH_SQL_LOG: sqlLog },
      { preloads: ['./bench/record-sql.ts'], readyPath: '/v1/health' },
    );
    const probes = new Map<string, ProbeResult>();
    mkdirSync('bench/plans', { recursive: true });
    try {
      for (const family of families) {
        log(`probing ${family.name}`);
        const result = await probeFamily(
          probe.baseUrl,
          headers,
          family.requests ?? family.paths,
          sqlLog,
          databaseUrl,
        );
        probes.set(family.name, result);
        const file = family.name
          .replace(/[^a-z0-9]+/gi, '-')
          .replace(/-$/, '')
          .toLowerCase();
        writeFileSync(`bench/plans/${file}.txt`, await explainText(databaseUrl, result.sample));
      }
    } finally {
      await probe.stop();
      rmSync(sqlLog, { force: true });
    }

    // 2. the timed runs, on the service as users start it
    const service = await startNode('app/main.ts', serviceEnv, {
      readyPath: '/v1/health',
    });
    try {
      for (const family of families) {
        log(
          `driving ${family.name}: warm-up ${warmupS} s, ${family.connections} connections ${durationS} s, 1 connection ${singleS} s`,
        );
        await drive(service.baseUrl, family.requests ?? family.paths, {
          connections: family.connections,
          durationS: warmupS,
          headers,
        });
        const loaded = await drive(service.baseUrl, family.requests ?? family.paths, {
          connections: family.connections,
          durationS,
          headers,
        });
        const single = await drive(service.baseUrl, family.requests ?? family.paths, {
          connections: 1,
          durationS: singleS,
          headers,
        });
        results.push({
          family,
          loaded,
          single,
          probe: probes.get(family.name)!,
        });
        // statements abandoned by the last connections run on until the service's statement timeout
        // (5 s by default); let them end before the next family is timed
        await sleep(COOL_DOWN_MS);
      }
    } finally {
      await service.stop();
    }

    // 2b. the first request a freshly started service answers (new connections, nothing planned yet)
    for (const result of results.filter((r) => r.family.firstAfterRestart)) {
      result.firstAfterRestartMs = [];
      for (let restart = 0; restart < RESTARTS; restart++) {
        const fresh = await startNode('app/main.ts', serviceEnv, { readyPath: '/v1/health' });
        try {
          const path = result.family.paths[(restart * 37 + 11) % result.family.paths.length]!;
          const started = performance.now();
          const res = await fetch(`${fresh.baseUrl}${path}`, { headers });
          await res.arrayBuffer();
          result.firstAfterRestartMs.push(res.ok ? performance.now() - started : Number.NaN);
        } finally {
          await fresh.stop();
        }
      }
      log(
        `${result.family.name}: first request after a restart ${result.firstAfterRestartMs.map((t) => t.toFixed(1)).join(', ')} ms`,
      );
    }
  }

  // 3. the peers: PostGraphile 5 and the hand-written floor beside the service, response cache off
  const peers = runPeersToo
    ? await runPeers({
        databaseUrl,
        serviceEnv,
        headers,
        rows: buildPeerRows(sample).filter((row) => isSelected(peerRowFilter, row.route)),
        durationS,
        warmupS,
        log,
      })
    : [];

  writeReport(
    {
      started,
      command: `npm run bench (BENCH_DURATION_S=${durationS} BENCH_WARMUP_S=${warmupS} BENCH_SINGLE_S=${singleS}${familyFilter.length ? ` BENCH_FAMILIES=${familyFilter.join(',')}` : ''}${peerRowFilter.length ? ` BENCH_PEER_ROWS=${peerRowFilter.join(',')}` : ''}${cacheTtl !== undefined ? ` RESPONSE_CACHE_TTL_MS=${cacheTtl}` : ''})`,
      commit,
      workingTree,
      machine: `${cpus().length} cores, load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
      databaseUrl,
      stores: BENCH_STORES,
      results,
      peers,
      responseCacheOff: cacheOff,
      rollupRefreshMs,
    },
    out,
  );
  log(`wrote ${out}.json and ${out}.md`);
} finally {
  revokeKey(databaseUrl, key, 12);
}
