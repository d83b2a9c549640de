// `npm run soak`: the service under steady mixed load for a bounded time, as users run it. Starts
// the gateway as its own process on loopback (tsx app/main.ts) on an existing database
// (--database-url) or on a fresh embedded PostgreSQL with a small seeded catalog (the default, so it
// runs on a fresh machine), mints a key, holds N concurrent clients on the workload of workload.ts
// while three real scrapes run against a fixture storefront, and samples the gateway's RSS every
// second. Fails (exit 1) on any error answer (non-2xx, connection error, timeout), a scrape that
// does not end done, or RSS growing 10 % or more after warm-up. Writes bench/soak/results.{json,md}.
//
//   npm run soak -- [--clients 32] [--duration 60] [--warmup 10] [--stores 2000] [--database-url URL] [--max-old-space 256]
//   (or SOAK_CLIENTS, SOAK_DURATION_S, SOAK_WARMUP_S, SOAK_STORES, SOAK_DATABASE_URL, SOAK_MAX_OLD_SPACE_MB;
//   REDIS_URL is passed on)
//
// The gateway runs with a capped V8 heap (--max-old-space-size, 256 MB by default; 0 = V8's own
// sizing), as a container would run it: uncapped, V8 lets garbage pile up for minutes before a
// full collection and RSS climbs with it although the live heap stays flat, which would hide (or
// fake) a leak in a one-minute run. A real leak under the cap ends in an out-of-memory exit, which
// fails the run too.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { runKeysCommand } from '../../app/cli/keys.ts';
import { loadConfig } from '../../src/platform/config.ts';
import {
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../../src/platform/database/embedded-postgres.ts';
import { startFixtureStorefronts } from '../../test/scrapes/support/fixture-storefronts.ts';
import { freePort } from '../processes.ts';
import { judgeMemory, sampleRss } from './memory.ts';
import { writeSummary, type SoakSummary } from './report.ts';
import { buildWorkload } from './workload.ts';
import { unlimitedPlanLimits } from '../service-env.ts';

const { values: flags } = parseArgs({
  options: {
    clients: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    stores: { type: 'string' },
    'database-url': { type: 'string' },
    'max-old-space': { type: 'string' },
  },
});
const positive = (name: string, value: string | undefined, fallback: number) => {
  const n = Number(value ?? fallback);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`${name} must be a positive whole number, not ${value}`);
  return n;
};
const clients = positive('--clients', flags.clients ?? process.env.SOAK_CLIENTS, 32);
const durationS = positive('--duration', flags.duration ?? process.env.SOAK_DURATION_S, 60);
const warmupS = positive('--warmup', flags.warmup ?? process.env.SOAK_WARMUP_S, 10);
const stores = positive('--stores', flags.stores ?? process.env.SOAK_STORES, 2_000);
const givenDatabaseUrl = flags['database-url'] ?? process.env.SOAK_DATABASE_URL;
const maxOldSpaceMb = Number(flags['max-old-space'] ?? process.env.SOAK_MAX_OLD_SPACE_MB ?? 256);
if (!Number.isInteger(maxOldSpaceMb) || maxOldSpaceMb < 0)
  throw new Error('--max-old-space must be a whole number of MB (0 = V8 default)');
if (durationS < warmupS + 10) throw new Error('--duration must leave at least 10 s after --warmup');

const MAX_RSS_GROWTH_PCT = 10;
const SCRAPED_HOSTS = ['shop-a.test', 'dropper.test', 'changing.test'];
const log = (line: string) => process.stderr.write(`[soak] ${line}\n`);
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

const startedAt = new Date().toISOString();
const loadBefore = loadavg();
const cleanups: Array<() => Promise<unknown>> = [];
const failures: string[] = [];

async function openDatabase(): Promise<{ url: string; description: string }> {
  if (givenDatabaseUrl)
    return {
      url: givenDatabaseUrl,
      description: `the database at ${new URL(givenDatabaseUrl).host}`,
    };
  const dataDir = await mkdtemp(path.join(tmpdir(), 'soak-pg-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  log(`starting an embedded PostgreSQL in ${dataDir}`);
  const embedded: EmbeddedPostgresHandle = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
  });
  cleanups.push(() => embedded.stop());
  return {
    url: embedded.url,
    description: `a fresh embedded PostgreSQL seeded with ${stores} stores`,
  };
}

async function startGateway(databaseUrl: string, overrides: string) {
  const port = await freePort();
  const heapCap = maxOldSpaceMb > 0 ? [`--max-old-space-size=${maxOldSpaceMb}`] : [];
  const child = spawn(process.execPath, [...heapCap, '--import', 'tsx', 'app/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      SEED_STORES: String(stores),
      PLAN_LIMITS_JSON: unlimitedPlanLimits(),
      EGRESS_OVERRIDES: overrides,
      EGRESS_HOST_INTERVAL_MS: '0',
      CHROMIUM_PATH: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logLines: string[] = [];
  const keep = (chunk: Buffer) =>
    logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 600_000; // a first start seeds the catalog
  while (
    (await fetch(`${baseUrl}/v1/health`).then(
      (r) => r.status,
      () => 0,
    )) !== 200
  ) {
    if (child.exitCode !== null)
      throw new Error(
        `the gateway exited with ${child.exitCode}:\n${logLines.slice(-20).join('\n')}`,
      );
    if (Date.now() > deadline)
      throw new Error('the gateway did not become healthy within 10 minutes');
    await sleep(500);
  }
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
  };
  cleanups.push(stop);
  return { baseUrl, child, logLines };
}

async function mintKey(databaseUrl: string): Promise<string> {
  const printed: string[] = [];
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const code = await runKeysCommand(
    ['create', '--account', 'soak', '--plan', 'pro', '--name', 'npm run soak'],
    { out: (t) => printed.push(t), err: log },
    config,
  );
  if (code !== 0 || !printed[0]) throw new Error('could not mint the soak key');
  const key = printed[0].trim();
  cleanups.push(() =>
    runKeysCommand(
      ['revoke', key.slice(0, 12)],
      { out: () => undefined, err: () => undefined },
      config,
    ),
  );
  return key;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;

async function soak(): Promise<SoakSummary> {
  const fixtures = await startFixtureStorefronts();
  cleanups.push(() => fixtures.close());
  const database = await openDatabase();
  log(`starting the gateway on ${database.description}`);
  const gateway = await startGateway(database.url, fixtures.overrides);
  const key = await mintKey(database.url);
  const headers = { authorization: `Bearer ${key}` };
  const workload = await buildWorkload(gateway.baseUrl, headers);
  log(
    `${workload.length} distinct requests; ${clients} clients for ${durationS} s (warm-up ${warmupS} s)`,
  );

  const memory = sampleRss(gateway.child.pid!);
  const statusCounts: Record<string, number> = {};
  const latencies: number[] = [];
  let connectionErrors = 0;

  // three real scrapes (job, storefront fetches, catalog writes, status events) while the load runs
  const scrapeIds = new Map<string, string>();
  const scrapeTimers = SCRAPED_HOSTS.map((domain, i) =>
    setTimeout(
      async () => {
        const response = await fetch(`${gateway.baseUrl}/v1/scrapes`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ domain }),
        }).catch(() => undefined);
        if (response?.status === 202)
          scrapeIds.set(domain, ((await response.json()) as { id: string }).id);
        else
          failures.push(
            `the scrape request for ${domain} answered ${response?.status ?? 'nothing'}`,
          );
      },
      ((i + 1) * durationS * 1_000) / (SCRAPED_HOSTS.length + 1),
    ),
  );

  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: gateway.baseUrl,
        connections: clients,
        duration: durationS,
        timeout: 10,
        requests: workload.map((r) => ({ ...r, headers: { ...r.headers, ...headers } })),
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
      latencies.push(responseTime);
    });
    instance.on('reqError', () => connectionErrors++);
  });
  memory.stop();
  scrapeTimers.forEach(clearTimeout);

  const scrapes: SoakSummary['scrapes'] = [];
  for (const domain of SCRAPED_HOSTS) {
    const id = scrapeIds.get(domain);
    if (!id) continue;
    let status = 'unknown';
    for (const until = Date.now() + 60_000; Date.now() < until; await sleep(500)) {
      const response = await fetch(`${gateway.baseUrl}/v1/scrapes/${id}`, { headers }).catch(
        () => undefined,
      );
      status = response?.ok
        ? ((await response.json()) as { status: string }).status
        : `HTTP ${response?.status ?? 'none'}`;
      if (status === 'done' || status === 'failed') break;
    }
    scrapes.push({ domain, status });
    if (status !== 'done') failures.push(`the scrape of ${domain} ended ${status}`);
  }

  latencies.sort((a, b) => a - b);
  const non2xx = Object.entries(statusCounts)
    .filter(([code]) => !code.startsWith('2'))
    .reduce((n, [, count]) => n + count, 0);
  const errors = non2xx + connectionErrors + result.timeouts;
  if (errors > 0)
    failures.push(
      `${errors} error answers (${non2xx} non-2xx, ${connectionErrors} connection errors, ${result.timeouts} timeouts)`,
    );
  const verdict = judgeMemory(memory.samples, warmupS);
  if (!(verdict.growthPct < MAX_RSS_GROWTH_PCT))
    failures.push(`RSS grew ${verdict.growthPct} % after warm-up (limit ${MAX_RSS_GROWTH_PCT} %)`);
  if (gateway.child.exitCode !== null)
    failures.push(`the gateway exited with ${gateway.child.exitCode} during the run`);
  const errorLines = gateway.logLines.filter((line) => /"level":(50|60)/.test(line));

  return {
    startedAt,
    command: `npm run soak -- --clients ${clients} --duration ${durationS} --warmup ${warmupS}${givenDatabaseUrl ? ' --database-url …' : ` --stores ${stores}`} --max-old-space ${maxOldSpaceMb}`,
    settings: {
      clients,
      durationS,
      warmupS,
      database: database.description,
      stores,
      redis: Boolean(process.env.REDIS_URL),
      maxOldSpaceMb,
    },
    machine: { cpus: cpus().length, loadAverage: loadBefore },
    requests: latencies.length,
    requestsPerSecond: latencies.length / durationS,
    statusCounts,
    errors,
    connectionErrors,
    timeouts: result.timeouts,
    latencyMs: {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? NaN,
    },
    scrapes,
    memory: verdict,
    gatewayErrorLogLines: errorLines.length,
    failures,
    rssSamples: memory.samples,
  };
}

let exitCode = 1;
try {
  const summary = await soak();
  process.stdout.write(writeSummary(summary, new URL('./', import.meta.url)));
  exitCode = summary.failures.length === 0 ? 0 : 1;
} catch (error) {
  log(`failed: ${(error as Error).stack ?? error}`);
} finally {
  for (const cleanup of cleanups.reverse())
    await cleanup().catch((error: unknown) => log(`cleanup: ${(error as Error).message}`));
}
process.exit(exitCode);
