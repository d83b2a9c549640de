// The catalog's heartbeat on the durable queue: one pending `catalog-tick` job (job key), which tops
// the queue up to the global concurrency (work-queue.ts), then queues the next tick. It comes back within TICK_BUSY_MS while work is due or in flight,
// else when the earliest store or candidate comes due (at most TICK_IDLE_MS later, so a store
// added meanwhile waits at most that long). Every worker's sweep queues a tick when none is pending
// (the first start, or a tick lost with its worker), so the schedule resumes after any crash.
import type pg from 'pg';
import { enqueueJob, JOB_SCHEMA, type Queryable } from '../platform/jobs/job-queue.ts';
import type { DiscoveryBudget } from './discovery-budget.ts';
import { TICK_TASK, topUp } from './work-queue.ts';

export const TICK_BUSY_MS = 1_000;
export const TICK_IDLE_MS = 60_000;

/**
 * Queues the tick `delayMs` from now (a running one is left to finish). An import or a test asks
 * for one now and replaces a pending one; the tick's own next one (`afterRun`) never postpones a
 * tick someone asked for while it ran.
 */
export async function queueTick(db: Queryable, delayMs = 0, afterRun = false): Promise<void> {
  await enqueueJob(
    db,
    TICK_TASK,
    {},
    {
      jobKey: TICK_TASK,
      runAt: new Date(Date.now() + delayMs),
      maxAttempts: 3,
      keepPendingRunAt: afterRun,
    },
  );
}

/** Queues a tick unless one is pending or running. */
export async function ensureTick(db: Queryable): Promise<void> {
  const { rows } = await db.query(
    `SELECT 1 FROM ${JOB_SCHEMA}.jobs WHERE task_identifier = $1 AND attempts < max_attempts LIMIT 1`,
    [TICK_TASK],
  );
  if (rows.length === 0) await queueTick(db);
}

export function tickTask(deps: {
  pool: pg.Pool;
  clock: () => Date;
  globalConcurrency: () => number;
  discoveryBudget?: DiscoveryBudget;
}) {
  return async (): Promise<void> => {
    const now = deps.clock();
    const filled = await topUp(deps.pool, now, deps.globalConcurrency(), deps.discoveryBudget);
    let delayMs = TICK_BUSY_MS;
    if (filled && filled.inFlight === 0) {
      const {
        rows: [next],
      } = await deps.pool.query<{ at: Date | null }>(
        `SELECT LEAST((SELECT min(next_at) FROM observation_schedule WHERE queued_at IS NULL),
                      (SELECT min(next_at) FROM catalog_candidates WHERE status = 'pending')) AS at`,
      );
      const until = next?.at ? next.at.getTime() - now.getTime() : TICK_IDLE_MS;
      delayMs = Math.min(TICK_IDLE_MS, Math.max(TICK_BUSY_MS, until));
    }
    await queueTick(deps.pool, delayMs, true);
  };
}
