// `npm run bench:crawl`: the living catalog's crawler against the storefront farm (issue 15).
// Starts the farm (test/support/storefront-farm) as its own process, puts its stores in a catalog
// the way an operator does (`npm run catalog -- import FILE`, each domain validated by discovery),
// (with the app catalog of data/apps.json loaded, as the seed loads it, so app detection runs),
// then, run by run, starts worker processes (`npm run worker`) with every catalog store due at
// once and follows observation_log until each store has been observed: with one worker, with two,
// and with two of which one is killed (SIGKILL) a third of the way through. Before each run the
// farm moves to its next epoch, so about 30 % of the stores have changed since they were last
// observed. The farm counts the requests in flight per host; each run carries its maxInFlightPerHost
// and the bench fails (exit 1, after writing the results) if any run ever had more than one.
// Writes bench/crawl/results.json (one entry per run) and bench/crawl/results.md.
//
// Run it alone (no other bench or test run on the machine): npm run bench:crawl
// CRAWL_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/bench_crawl, created when missing),
// CRAWL_STORES (10000: the farm's size and the catalog's), CRAWL_RUNS (1,2,2k: workers per run, k = one is killed),
// CRAWL_WORKER_CONCURRENCY (observations one worker runs at once, 64), CRAWL_TIMEOUT_S (no progress for this long ends a run, 180).
import { execSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { alertFigures, createRunAlerts } from './alert-count.ts';
import { CrawlDatabase, type RunFigures } from './crawl-db.ts';
import { oneRequestPerHost, writeCrawlReport, type CrawlRun } from './report.ts';

const databaseUrl =
  process.env.CRAWL_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_crawl';
const storeCount = Number(process.env.CRAWL_STORES ?? 10_000);
const runPlan = (process.env.CRAWL_RUNS ?? '1,2,2k')
  .split(',')
  .map((part) => ({ workers: Number.parseInt(part, 10), kill: part.trim().endsWith('k') }));
const workerConcurrency = Number(process.env.CRAWL_WORKER_CONCURRENCY ?? 64);
const stallTimeoutMs = Number(process.env.CRAWL_TIMEOUT_S ?? 180) * 1000;
const FARM_DOMAIN = 'farm.test';
const log = (line: string) =>
  process.stderr.write(`[bench:crawl] ${new Date().toISOString().slice(11, 19)} ${line}\n`);

if (runPlan.some((r) => !(r.workers >= 1) || (r.kill && r.workers < 2))) {
  throw new Error(
    `CRAWL_RUNS=${process.env.CRAWL_RUNS}: each run is a worker count (1, 2, …), "k" after one of at least 2 kills a worker`,
  );
}

interface Farm {
  port: number;
  overrides: string;
  stop(): Promise<void>;
}

async function startFarm(): Promise<Farm> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'test/support/storefront-farm/serve.ts',
      '--stores',
      String(storeCount),
      '--domain',
      FARM_DOMAIN,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const first = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the farm exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  const { port, overrides } = JSON.parse(first) as { port: number; overrides: string };
  return { port, overrides, stop: () => stopChild(child, 'SIGTERM') };
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await Promise.race([exited, sleep(20_000).then(() => child.kill('SIGKILL'))]);
}

const workerEnv = (farm: Farm, workers: number) => ({
  ...process.env,
  DATABASE_URL: databaseUrl,
  EGRESS_OVERRIDES: farm.overrides,
  NODE_ENV: 'development',
  LOG_LEVEL: 'warn',
  LOG_FORMAT: 'json',
  CATALOG_SCHEDULER: 'true',
  CATALOG_WORKER_CONCURRENCY: String(workerConcurrency),
  CATALOG_CONCURRENCY: String(workerConcurrency * workers),
  // a screenshot per scrape is the scrape task's; observations never take one, but no browser is wanted here
  CHROMIUM_PATH: '',
});

function startWorker(farm: Farm, workers: number): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'app/worker.ts'], {
    env: workerEnv(farm, workers),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Puts the farm's stores in the catalog: imported as candidates, validated by discovery (one worker pool, full speed). */
async function importFarm(db: CrawlDatabase, farm: Farm): Promise<number[]> {
  let scheduled = await db.scheduledStores(FARM_DOMAIN);
  if (scheduled.length > 0) {
    log(`catalog holds ${scheduled.length} farm stores already (${databaseUrl}); reusing them`);
    return scheduled;
  }
  const file = join(tmpdir(), `farm-domains-${process.pid}.txt`);
  writeFileSync(
    file,
    Array.from({ length: storeCount }, (_, i) => `s${i}.${FARM_DOMAIN}`).join('\n'),
  );
  const imported = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'app/cli/catalog.ts', 'import', file],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    },
  );
  if (imported.status !== 0)
    throw new Error(`npm run catalog -- import failed: ${imported.stderr}`);
  log(`imported ${storeCount} farm domains: ${imported.stdout.trim().split('\n').pop()}`);
  const workers = [startWorker(farm, 2), startWorker(farm, 2)];
  try {
    let open = await db.candidatesOpen();
    let lastChange = Date.now();
    while (open > 0) {
      await sleep(5_000);
      const now = await db.candidatesOpen();
      if (now !== open) lastChange = Date.now();
      if (Date.now() - lastChange > stallTimeoutMs)
        throw new Error(`discovery stalled with ${now} candidates open`);
      open = now;
      log(`discovery: ${open} candidates still open`);
    }
  } finally {
    await Promise.all(workers.map((w) => stopChild(w, 'SIGTERM')));
  }
  scheduled = await db.scheduledStores(FARM_DOMAIN);
  log(`discovery accepted ${scheduled.length} of ${storeCount} farm stores into the catalog`);
  return scheduled;
}

async function runOnce(
  db: CrawlDatabase,
  farm: Farm,
  storeIds: number[],
  plan: { workers: number; kill: boolean },
): Promise<CrawlRun> {
  await fetch(`http://127.0.0.1:${farm.port}/__farm/epoch`, { method: 'POST' });
  await db.nothingDue();
  await fetch(`http://127.0.0.1:${farm.port}/__farm/in-flight`, { method: 'DELETE' });
  const booted = new Date();
  const workers = Array.from({ length: plan.workers }, () => startWorker(farm, plan.workers));
  let killedAt: number | null = null;
  // a worker that dies by itself (e.g. PostgreSQL refusing connections to a machine shared with other work) is reported
  let crashed = 0;
  for (const worker of workers)
    worker.once('exit', (code, signal) => {
      if (signal !== 'SIGKILL' && signal !== 'SIGTERM' && code !== 0) crashed++;
    });
  try {
    // the run starts when every worker is up (tsx compiles the service first): no worker gets a head start
    while ((await db.workersSeen(booted)) < plan.workers) {
      if (workers.some((w) => w.exitCode !== null))
        throw new Error('a worker exited during start-up');
      await sleep(500);
    }
    const loadBefore = loadavg();
    // alerts made before the epoch's observations: the stores they match now are not matches
    const runAlerts = await createRunAlerts(db.pool, storeIds);
    const startedAt = await db.makeDue(storeIds);
    log(
      `run: ${plan.workers} worker(s)${plan.kill ? ', one killed mid-run' : ''}, ${storeIds.length} stores due at ${startedAt.toISOString()}`,
    );
    let progress = await db.progress(storeIds, startedAt);
    let lastChange = Date.now();
    while (progress.observed < storeIds.length || (await db.inFlight()) > 0) {
      await sleep(2_000);
      const next = await db.progress(storeIds, startedAt);
      if (next.observed !== progress.observed) lastChange = Date.now();
      progress = next;
      if (plan.kill && killedAt === null && progress.observed >= storeIds.length / 3) {
        killedAt = progress.observed;
        log(`killing a worker (SIGKILL) after ${killedAt} stores`);
        workers[workers.length - 1]!.kill('SIGKILL');
      }
      if (Date.now() - lastChange > stallTimeoutMs) {
        log(`no progress for ${stallTimeoutMs / 1000} s: ending the run`);
        break;
      }
      log(
        `  ${progress.observed}/${storeIds.length} observed${progress.duplicated ? `, ${progress.duplicated} duplicated` : ''}`,
      );
    }
    // late duplicates (a released job run a second time) would arrive within the orphan sweep's grace
    await sleep(plan.kill ? 20_000 : 2_000);
    const figures: RunFigures = await db.figures(storeIds, startedAt);
    const alerts = await alertFigures(db.pool, runAlerts, storeIds);
    const farmStats = (await (await fetch(`http://127.0.0.1:${farm.port}/__farm`)).json()) as {
      maxInFlightPerHost: number;
      maxInFlightHost: string | null;
    };
    const seconds = figures.lastFinishedAt
      ? (figures.lastFinishedAt.getTime() - startedAt.getTime()) / 1000
      : NaN;
    return {
      storefronts: storeIds.length,
      workers: plan.workers,
      storesPerSecond: Math.round((figures.observed / seconds) * 100) / 100,
      missed: figures.missed,
      duplicated: figures.duplicated,
      p50ObservationMs: figures.p50ObservationMs,
      p99ObservationMs: figures.p99ObservationMs,
      killedWorkerAfter: killedAt,
      workersCrashed: crashed,
      seconds: Math.round(seconds * 10) / 10,
      outcomes: figures.outcomes,
      changesRecorded: figures.changesRecorded,
      storesChanged: figures.storesChanged,
      appPeriodsOpened: figures.appPeriodsOpened,
      appPeriodsClosed: figures.appPeriodsClosed,
      alerts,
      workerConcurrency,
      maxInFlightPerHost: farmStats.maxInFlightPerHost,
      maxInFlightHost: farmStats.maxInFlightHost,
      loadAverageBefore: loadBefore.map((l) => Math.round(l * 100) / 100),
      loadAverageAfter: loadavg().map((l) => Math.round(l * 100) / 100),
    };
  } finally {
    await Promise.all(workers.map((w) => stopChild(w, 'SIGTERM')));
  }
}

const db = await CrawlDatabase.open(databaseUrl);
const farm = await startFarm();
log(`farm: ${storeCount} storefronts on 127.0.0.1:${farm.port} (${farm.overrides})`);
const started = new Date().toISOString();
try {
  // the schema (the catalog's tables included) is the service's to make: the migrator runs at a worker's start
  const migrate = startWorker(farm, 1);
  while ((await db.workersSeen(new Date(0)).catch(() => 0)) === 0) await sleep(1_000);
  await stopChild(migrate, 'SIGTERM');
  await db.loadAppCatalog();
  const storeIds = await importFarm(db, farm);
  const runs: CrawlRun[] = [];
  for (const plan of runPlan) {
    const run = await runOnce(db, farm, storeIds, plan);
    log(
      `  ${run.storesPerSecond} stores/s, missed ${run.missed}, duplicated ${run.duplicated}, max in flight per host ${run.maxInFlightPerHost}, p50 ${run.p50ObservationMs} ms, p99 ${run.p99ObservationMs} ms; ` +
        `alert matches ${run.alerts.recorded} of ${run.alerts.expected} expected, missed ${run.alerts.missed}, duplicated ${run.alerts.duplicated}, spurious ${run.alerts.spurious}`,
    );
    runs.push(run);
  }
  mkdirSync('bench/crawl', { recursive: true });
  writeCrawlReport('bench/crawl/results', {
    started,
    command: 'npm run bench:crawl',
    commit: execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim(),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, shared with other work (load averages per run)`,
    farmStores: storeCount,
    runs,
  });
  log('wrote bench/crawl/results.json and bench/crawl/results.md');
  if (!oneRequestPerHost(runs)) {
    log(
      `FAILED: more than one request in flight to one host (${runs.map((r) => `${r.maxInFlightPerHost} at ${r.maxInFlightHost}`).join(', ')})`,
    );
    process.exitCode = 1;
  }
} finally {
  await farm.stop();
  await db.close();
}
