// A worker process's share of the durable queue: graphile-worker running the features' tasks on a
// connection pool of its own (so jobs never starve API requests of connections), every task under
// a liveness lock, and a periodic sweep that releases the jobs of dead workers and runs the
// features' own upkeep. Most features share one runner (WORKER_CONCURRENCY jobs at once); a feature
// that brings its own concurrency (the catalog's observations) gets a runner of its own, so its
// backlog never delays a scrape or a webhook. Started inside the gateway (WORKER_IN_PROCESS) or by
// `npm run worker`.
import {
  Logger as GraphileLogger,
  makeWorkerUtils,
  run,
  type JobHelpers,
  type Runner,
  type Task,
} from 'graphile-worker';
import pg from 'pg';
import type { Logger } from '../logger.ts';
import { JOB_SCHEMA, migrateJobQueue } from './job-queue.ts';
import { LivenessLocks, releaseOrphanedJobs } from './liveness.ts';

export type JobTask = (payload: unknown, helpers: JobHelpers) => Promise<void>;

/** What a feature brings to the worker: its tasks by name, and upkeep run on every sweep. */
/**
 * What one graphile-worker log entry becomes: its message (which names the task, job id, duration
 * and attempt) at its level; the job's whole record goes with warnings and errors, and with info
 * entries only at debug, so a finished job is one line at info. The queue's start line restates
 * "job worker started" below and is debug.
 */
export function queueLogLines(
  level: string,
  message: string,
  meta: unknown,
): Array<{ level: 'error' | 'warn' | 'info' | 'debug'; fields: Record<string, unknown> }> {
  const restatesStart = message.startsWith('Worker connected');
  const at =
    level === 'error'
      ? 'error'
      : level === 'warning'
        ? 'warn'
        : level === 'info' && !restatesStart
          ? 'info'
          : 'debug';
  if (at !== 'info') return [{ level: at, fields: { queue: meta } }];
  return [
    { level: at, fields: {} },
    { level: 'debug', fields: { queue: meta } },
  ];
}

export interface JobFeature {
  name: string;
  tasks: Record<string, JobTask>;
  /** receives the worker's pool; runs every sweep interval in every worker process */
  sweep?: (pool: pg.Pool) => Promise<void>;
  /** receives the worker's pool when the worker stops cleanly, after its jobs finished (a process leaving the console's workers table) */
  stop?: (pool: pg.Pool) => Promise<void>;
  /** jobs of this feature run on a runner of their own, this many at once, apart from every other feature's */
  concurrency?: number;
}

export interface JobWorkerOptions {
  databaseUrl: string;
  logger: Logger;
  concurrency: number;
  features: JobFeature[];
  /** how often dead workers' jobs are looked for and upkeep runs */
  sweepIntervalMs?: number;
  /** a job locked this long whose liveness lock is free belongs to a dead worker */
  orphanGraceMs?: number;
  /** how often the queue is polled for jobs that became due (retries); new jobs arrive by LISTEN/NOTIFY */
  pollIntervalMs?: number;
  /** statement_timeout of the worker's connections: jobs write more than a request reads */
  statementTimeoutMs?: number;
}

export interface JobWorker {
  /** lets running jobs finish and closes the worker's pool; calling it again waits for the same stop */
  stop(): Promise<void>;
}

/** connections for the queue's statements, however many jobs run at once */
const QUEUE_CONNECTIONS = 8;

export async function startJobWorker(options: JobWorkerOptions): Promise<JobWorker> {
  const log = options.logger.child({ component: 'job-worker' });
  const shared = options.features.filter((f) => f.concurrency === undefined);
  const ownRunners = options.features.filter((f) => f.concurrency !== undefined);
  const runningAtOnce =
    options.concurrency + ownRunners.reduce((sum, f) => sum + f.concurrency!, 0);
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    // held: a LISTEN connection per runner and the liveness session; the rest serve the queue's own
    // statements (fetch, complete, fail: one statement each, released at once; tasks use the
    // service's pool), so a few serve any concurrency. One per running job opened 68 connections at
    // once when 64 observations came due together, past what a shared PostgreSQL allows.
    max: 1 + ownRunners.length + 1 + Math.min(runningAtOnce, QUEUE_CONNECTIONS),
    statement_timeout: options.statementTimeoutMs ?? 60_000,
    application_name: 'store-intelligence-worker',
  });
  const onConnectionError = (error: Error) =>
    log.warn({ err: { message: error.message } }, 'worker connection failed');
  pool.on('error', onConnectionError);
  // a checked-out connection's failure reaches its query; this keeps its 'error' event from crashing us
  pool.on('connect', (client) => client.on('error', onConnectionError));

  await migrateJobQueue(pool);
  const graphileLogger = new GraphileLogger(() => (level, message, meta) => {
    for (const line of queueLogLines(level, message, meta)) log[line.level](line.fields, message);
  });

  const liveness = new LivenessLocks(pool);
  const taskListOf = (features: readonly JobFeature[]) => {
    const taskList: Record<string, Task> = {};
    for (const feature of features) {
      for (const [name, task] of Object.entries(feature.tasks)) {
        taskList[name] = (payload, helpers) =>
          liveness.whileAlive(helpers.job.id, () => task(payload, helpers));
      }
    }
    return taskList;
  };
  const runnerOf = (features: readonly JobFeature[], concurrency: number) =>
    run({
      pgPool: pool,
      schema: JOB_SCHEMA,
      concurrency,
      noHandleSignals: true,
      pollInterval: options.pollIntervalMs ?? 1_000,
      taskList: taskListOf(features),
      // recurring work is scheduled by the features themselves (sweeps, probe ticks), never by a
      // crontab file: without this graphile-worker looks for ./crontab and logs its absence at every start
      parsedCronItems: [],
      logger: graphileLogger,
    });
  const runners: Runner[] = [await runnerOf(shared, options.concurrency)];
  for (const feature of ownRunners) runners.push(await runnerOf([feature], feature.concurrency!));
  const utils = await makeWorkerUtils({ pgPool: pool, schema: JOB_SCHEMA, logger: graphileLogger });

  let sweeping: Promise<void> | undefined;
  const sweep = async () => {
    try {
      const released = await releaseOrphanedJobs(pool, utils, options.orphanGraceMs ?? 15_000);
      if (released.length > 0)
        log.warn(
          { jobs: released },
          'released jobs of a worker that stopped mid-job; they will be retried',
        );
      for (const feature of options.features) await feature.sweep?.(pool);
    } catch (error) {
      log.warn({ err: error }, 'job sweep failed; retrying at the next interval');
    }
  };
  const timer = setInterval(() => {
    sweeping ??= sweep().finally(() => (sweeping = undefined));
  }, options.sweepIntervalMs ?? 10_000);
  timer.unref();
  log.info(
    {
      concurrency: options.concurrency,
      tasks: Object.keys(taskListOf(shared)),
      ownRunners: Object.fromEntries(ownRunners.map((f) => [f.name, f.concurrency])),
    },
    'job worker started',
  );

  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        clearInterval(timer);
        await sweeping;
        // lets running jobs finish (graphile-worker's graceful shutdown), then closes the pool
        await Promise.all(runners.map((runner) => runner.stop()));
        for (const feature of options.features) {
          await feature
            .stop?.(pool)
            .catch((error: unknown) =>
              log.warn({ err: error, feature: feature.name }, 'a feature failed to say it stopped'),
            );
        }
        await liveness.close();
        await utils.release();
        await pool.end();
      })();
      return stopping;
    },
  };
}
