// The durable job queue: graphile-worker on the structured store's PostgreSQL (its own schema,
// graphile_worker, which it migrates itself). Jobs are added with SQL inside the caller's
// transaction, so a job exists exactly when the change that asked for it was committed.
import { runMigrations } from 'graphile-worker';
import type pg from 'pg';

export const JOB_SCHEMA = 'graphile_worker';

export interface EnqueueOptions {
  /** at most one pending job per key (graphile-worker job_key); a second add replaces the first */
  jobKey?: string;
  maxAttempts?: number;
  runAt?: Date;
  /** with jobKey: a pending job of the key keeps its run_at (graphile-worker's preserve_run_at), so an earlier call is not postponed */
  keepPendingRunAt?: boolean;
}

export type Queryable = Pick<pg.PoolClient, 'query'>;

export async function enqueueJob(
  db: Queryable,
  task: string,
  payload: object,
  options: EnqueueOptions = {},
): Promise<void> {
  await db.query(
    `SELECT ${JOB_SCHEMA}.add_job($1, $2::json, job_key => $3, max_attempts => $4, run_at => $5, job_key_mode => $6)`,
    [
      task,
      JSON.stringify(payload),
      options.jobKey ?? null,
      options.maxAttempts ?? null,
      options.runAt ?? null,
      options.keepPendingRunAt ? 'preserve_run_at' : 'replace',
    ],
  );
}

/** Creates or upgrades the queue's schema; safe to run from every process at every start. */
export async function migrateJobQueue(pool: pg.Pool): Promise<void> {
  await runMigrations({ pgPool: pool, schema: JOB_SCHEMA });
}
