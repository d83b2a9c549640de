// The catalog's upkeep, run by every worker process on each sweep (every few seconds): this
// process's heartbeat in crawler_workers (with the settings it runs, for the operations console);
// a pending tick, queued if none is (catalog-tick.ts); claims whose job can no longer run (its
// attempts used up by a worker killed on the last one, or removed) released so the store or
// candidate is due again at once; the observation log kept OBSERVATION_LOG_RETENTION_HOURS; and
// storefront holds (crawler_host_holds) dropped once their time has passed.
import { hostname } from 'node:os';
import type pg from 'pg';
import { JOB_SCHEMA } from '../platform/jobs/job-queue.ts';
import * as policy from '../storefront/observation-policy.ts';
import type { CatalogSettings } from './catalog-deps.ts';
import { ensureTick } from './catalog-tick.ts';
import { DISCOVER_TASK, OBSERVE_TASK } from './work-queue.ts';

export const OBSERVATION_LOG_RETENTION_HOURS = 48;
/** a worker not seen for this long is dropped from crawler_workers */
const WORKER_FORGOTTEN_HOURS = 24;

/** The settings a worker reports: its own, and the policy every worker applies. */
export function reportedSettings(settings: CatalogSettings, extra: Record<string, unknown>) {
  return {
    ...settings,
    ...extra,
    policy: {
      popularityTiers: policy.POPULARITY_TIERS,
      minIntervalHours: policy.MIN_INTERVAL_HOURS,
      maxIntervalHours: policy.MAX_INTERVAL_HOURS,
      changeRateWeight: policy.CHANGE_RATE_WEIGHT,
      jitter: policy.JITTER,
      failureBackoffMinutes: policy.FAILURE_BACKOFF_MINUTES,
      vanishAfterFailures: policy.VANISH_AFTER_FAILURES,
      vanishedRecheckHours: policy.VANISHED_RECHECK_HOURS,
    },
  };
}

export interface CatalogSweepDeps {
  workerId: string;
  startedAt: Date;
  settings: CatalogSettings;
  reported: Record<string, unknown>;
  clock: () => Date;
}

export async function sweepCatalog(pool: pg.Pool, deps: CatalogSweepDeps): Promise<void> {
  const now = deps.clock();
  await pool.query(
    `INSERT INTO crawler_workers (id, host, pid, concurrency, global_concurrency, settings, started_at, seen_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at, settings = excluded.settings`,
    [
      deps.workerId,
      hostname(),
      process.pid,
      deps.settings.workerConcurrency,
      deps.settings.globalConcurrency,
      deps.reported,
      deps.startedAt,
      now,
    ],
  );
  await ensureTick(pool);
  // a claim is written with its job; a claim without a job that can still run is stranded
  await pool.query(
    `UPDATE observation_schedule o SET queued_at = NULL, next_at = $1
      WHERE o.queued_at IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM ${JOB_SCHEMA}.jobs j
                         WHERE j.key = '${OBSERVE_TASK}:' || o.store_id AND (j.locked_at IS NOT NULL OR j.attempts < j.max_attempts))`,
    [now],
  );
  await pool.query(
    `UPDATE catalog_candidates c SET status = 'pending', next_at = $1, updated_at = $1
      WHERE c.status = 'queued'
        AND NOT EXISTS (SELECT 1 FROM ${JOB_SCHEMA}.jobs j
                         WHERE j.key = '${DISCOVER_TASK}:' || c.domain AND (j.locked_at IS NOT NULL OR j.attempts < j.max_attempts))`,
    [now],
  );
  // jobs whose attempts are used up stay in graphile-worker's table for ever: the claims above are what counts
  await pool.query(
    `SELECT ${JOB_SCHEMA}.remove_job(key) FROM ${JOB_SCHEMA}.jobs
      WHERE task_identifier = ANY($1) AND key IS NOT NULL AND locked_at IS NULL AND attempts >= max_attempts`,
    [[OBSERVE_TASK, DISCOVER_TASK]],
  );
  await pool.query(
    `DELETE FROM observation_log WHERE id IN (SELECT id FROM observation_log WHERE finished_at < $1 ORDER BY finished_at LIMIT 10000)`,
    [new Date(now.getTime() - OBSERVATION_LOG_RETENTION_HOURS * 3_600_000)],
  );
  await pool.query('DELETE FROM crawler_workers WHERE seen_at < $1', [
    new Date(now.getTime() - WORKER_FORGOTTEN_HOURS * 3_600_000),
  ]);
  // holds whose time has passed say nothing any more
  await pool.query('DELETE FROM crawler_host_holds WHERE until < now()');
}
