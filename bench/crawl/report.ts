// bench/crawl/results.json (one entry per run, the issue's fields first) and results.md (the same
// as a table, judged against issue 15's targets: ≥ 12 stores/s per worker process, two workers
// about twice one, nothing missed or duplicated, the killed-worker run included) and issue 27's:
// never more than one request in flight to one host (the farm counts them).
import { writeFileSync } from 'node:fs';
import type { AlertFigures } from './alert-count.ts';

export interface CrawlRun {
  /** stores due at the run's start (the farm's stores discovery accepted into the catalog) */
  storefronts: number;
  workers: number;
  storesPerSecond: number;
  /** stores due at the start that no observation reached */
  missed: number;
  /** observations beyond the first of a store */
  duplicated: number;
  p50ObservationMs: number | null;
  p99ObservationMs: number | null;
  /** stores observed when a worker was killed (SIGKILL); null when none was */
  killedWorkerAfter: number | null;
  /** workers that exited by themselves during the run (not the one killed) */
  workersCrashed: number;
  seconds: number;
  outcomes: Record<string, number>;
  /** change records written by the run's observations, and the stores they were about */
  changesRecorded: number;
  storesChanged: number;
  /** app install periods opened and closed by the run's observations (absent in runs before they were counted) */
  appPeriodsOpened?: number;
  appPeriodsClosed?: number;
  /** saved-search alerts made before the run: matches the epoch caused, against those recorded (issue 30) */
  alerts: AlertFigures;
  workerConcurrency: number;
  /** the most requests the farm answered at once for one host during the run (1 = one at a time) */
  maxInFlightPerHost: number;
  /** the host that saw it */
  maxInFlightHost: string | null;
  loadAverageBefore: number[];
  loadAverageAfter: number[];
}

export interface CrawlReport {
  started: string;
  command: string;
  commit: string;
  machine: string;
  farmStores: number;
  runs: CrawlRun[];
}

export const TARGET_PER_WORKER = 12;

/** Whether every run kept to one request in flight per host (the bench fails otherwise). */
export const oneRequestPerHost = (runs: readonly CrawlRun[]): boolean =>
  runs.every((run) => run.maxInFlightPerHost <= 1);

function verdict(run: CrawlRun, single: CrawlRun | undefined): string {
  const misses: string[] = [];
  if (!(run.storesPerSecond >= TARGET_PER_WORKER * run.workers) && run.killedWorkerAfter === null) {
    misses.push(`${run.storesPerSecond} < ${TARGET_PER_WORKER * run.workers} stores/s`);
  }
  if (run.missed > 0) misses.push(`${run.missed} missed`);
  if (run.workersCrashed > 0) misses.push(`${run.workersCrashed} worker(s) exited by themselves`);
  if (run.duplicated > 0) misses.push(`${run.duplicated} duplicated`);
  if (run.alerts.missed + run.alerts.duplicated + run.alerts.spurious > 0)
    misses.push(
      `alert matches: ${run.alerts.missed} missed, ${run.alerts.duplicated} duplicated, ${run.alerts.spurious} spurious`,
    );
  if (run.maxInFlightPerHost > 1)
    misses.push(`${run.maxInFlightPerHost} requests in flight to ${run.maxInFlightHost}`);
  if (single && run.workers > 1 && run.killedWorkerAfter === null) {
    const scale = run.storesPerSecond / single.storesPerSecond;
    if (scale < 0.8 * run.workers) misses.push(`×${scale.toFixed(2)} of one worker`);
  }
  return misses.length ? `missed: ${misses.join(', ')}` : 'met';
}

export function writeCrawlReport(base: string, report: CrawlReport): void {
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  const single = report.runs.find((r) => r.workers === 1 && r.killedWorkerAfter === null);
  const rows = report.runs.map((run) =>
    [
      run.workers +
        (run.killedWorkerAfter !== null ? ` (one killed after ${run.killedWorkerAfter})` : ''),
      run.storefronts.toLocaleString('en-US'),
      run.storesPerSecond.toFixed(2),
      (run.storesPerSecond / run.workers).toFixed(2),
      run.missed,
      run.duplicated,
      run.maxInFlightPerHost,
      run.p50ObservationMs ?? '-',
      run.p99ObservationMs ?? '-',
      run.seconds,
      Object.entries(run.outcomes)
        .map(([outcome, n]) => `${outcome} ${n}`)
        .join(', '),
      `${run.changesRecorded.toLocaleString('en-US')} on ${run.storesChanged.toLocaleString('en-US')} stores${
        run.appPeriodsOpened === undefined
          ? ''
          : `; app periods +${run.appPeriodsOpened} opened, ${run.appPeriodsClosed} closed`
      }`,
      `${run.alerts.recorded} of ${run.alerts.expected} (${run.alerts.alerts} alerts); missed ${run.alerts.missed}, duplicated ${run.alerts.duplicated}`,
      run.loadAverageBefore.join(' / '),
      verdict(run, single),
    ].join(' | '),
  );
  const text = `# Crawl bench (issue 15)

\`${report.command}\` — started ${report.started}, commit ${report.commit}; ${report.machine}.
The farm serves ${report.farmStores.toLocaleString('en-US')} storefronts; the catalog holds those discovery accepted. Each run
makes every catalog store due at once, after the farm moved to its next epoch (about 30 % of stores changed).
Worker processes run ${report.runs[0]?.workerConcurrency ?? '?'} observations at once each (CATALOG_WORKER_CONCURRENCY), with EGRESS_HOST_INTERVAL_MS at its default (500 ms between two requests to one host).
The farm serves moved stores, www-only hosts and robots.txt answering 429, and counts the requests in flight per host.
Target: ≥ ${TARGET_PER_WORKER} stores/s per worker process, two workers ≈ 2×, missed and duplicated 0 (the killed-worker run too), at most 1 request in flight per host.
Alert matches (issue 30): alerts on the farm's most installed apps ("runs X", "does not run X") are made before each run; every store the epoch made newly match one must be recorded once (missed, duplicated and spurious 0).

| workers | stores | stores/s | per worker | missed | duplicated | max in flight per host | p50 ms | p99 ms | seconds | outcomes | changes recorded | alert matches recorded of expected | load avg (1/5/15 min) before | verdict |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.map((r) => `| ${r} |`).join('\n')}
`;
  writeFileSync(`${base}.md`, text);
}
