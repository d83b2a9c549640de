// How due work reaches the durable queue. A store due for observation (observation_schedule.next_at
// passed) or a pending discovery candidate is *claimed*: its claim time is written (queued_at, or
// the candidate's status queued) in the same transaction that adds its graphile-worker job, keyed by
// the store or the domain, so a claim exists exactly when its job does and no store is ever queued
// twice. At most CATALOG_CONCURRENCY claims exist at once across every worker process (the global
// concurrency): each top-up counts them under an advisory lock and claims only the difference,
// earliest due first, so the schedule's spread becomes the queue's pace. Linked candidates are
// claimed within discovery's budgets (discovery-budget.ts); the others wait. A top-up runs after every
// observation (keeping the pipeline full) and on the catalog tick (catalog-tick.ts).
import type pg from 'pg';
import { JOB_SCHEMA, type Queryable } from '../platform/jobs/job-queue.ts';
import { inTransaction } from '../platform/database/transaction.ts';
import {
  BUDGET_WINDOW_HOURS,
  DEFAULT_DISCOVERY_BUDGET,
  describeBudget,
  OVER_BUDGET_WAIT_MINUTES,
  type DiscoveryBudget,
} from './discovery-budget.ts';

export const OBSERVE_TASK = 'catalog-observe';
export const DISCOVER_TASK = 'catalog-discover';
export const TICK_TASK = 'catalog-tick';
/** attempts of an observation or discovery job; only faults of ours are retried (a storefront's answer is recorded) */
export const CATALOG_MAX_ATTEMPTS = 3;

export const observeJobKey = (storeId: number) => `${OBSERVE_TASK}:${storeId}`;
export const discoverJobKey = (domain: string) => `${DISCOVER_TASK}:${domain}`;

/** arbitrary constant: the advisory lock a top-up holds while it counts and claims */
const TOP_UP_LOCK = 72_707_015;

export interface TopUp {
  stores: number;
  candidates: number;
  /** claims in flight after this top-up */
  inFlight: number;
}

/**
 * Claims due work up to the global concurrency and queues its jobs; null when another top-up is
 * under way (it fills the same slots). Candidates get at most half of the free slots while stores
 * are due, so neither a discovery import nor a backlog of re-observations starves the other.
 */
export function topUp(
  pool: pg.Pool,
  now: Date,
  globalConcurrency: number,
  budget: DiscoveryBudget = DEFAULT_DISCOVERY_BUDGET,
): Promise<TopUp | null> {
  return inTransaction(pool, async (client) => {
    const {
      rows: [lock],
    } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [
      TOP_UP_LOCK,
    ]);
    if (!lock!.locked) return null;
    const inFlight = await countInFlight(client);
    const free = Math.max(0, globalConcurrency - inFlight);
    if (free === 0) return { stores: 0, candidates: 0, inFlight };
    const firstCandidates = await claimCandidates(client, Math.ceil(free / 2), now, budget);
    const stores = await claimStores(client, free - firstCandidates, now);
    const moreCandidates = await claimCandidates(
      client,
      free - firstCandidates - stores,
      now,
      budget,
    );
    const candidates = firstCandidates + moreCandidates;
    return { stores, candidates, inFlight: inFlight + stores + candidates };
  });
}

export async function countInFlight(db: Queryable): Promise<number> {
  const {
    rows: [row],
  } = await db.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM observation_schedule WHERE queued_at IS NOT NULL)::int
          + (SELECT count(*) FROM catalog_candidates WHERE status = 'queued')::int AS n`,
  );
  return row!.n;
}

async function claimStores(client: Queryable, limit: number, now: Date): Promise<number> {
  if (limit <= 0) return 0;
  const { rows } = await client.query<{ store_id: number }>(
    `UPDATE observation_schedule o SET queued_at = $2
       FROM (SELECT store_id FROM observation_schedule WHERE queued_at IS NULL AND next_at <= $2
              ORDER BY next_at LIMIT $1 FOR UPDATE SKIP LOCKED) due
      WHERE o.store_id = due.store_id
     RETURNING o.store_id`,
    [limit, now],
  );
  await client.query(
    `SELECT ${JOB_SCHEMA}.add_job($1, json_build_object('storeId', id, 'claim', $3::text), job_key => $1 || ':' || id, max_attempts => $4)
       FROM unnest($2::int[]) AS id`,
    [OBSERVE_TASK, rows.map((r) => r.store_id), now.toISOString(), CATALOG_MAX_ATTEMPTS],
  );
  return rows.length;
}

async function claimCandidates(
  client: Queryable,
  limit: number,
  now: Date,
  budget: DiscoveryBudget,
): Promise<number> {
  if (limit <= 0) return 0;
  // a linked candidate's first validation spends budget; imports, new hosts and retries do not
  const { rows } = await client.query<{ domain: string }>(
    `WITH spent AS (
       SELECT found_on, registrable_domain FROM catalog_candidates WHERE source = 'link' AND claimed_at > $3
     ), fresh AS (
       SELECT domain, next_at, found_on, registrable_domain FROM catalog_candidates
        WHERE status = 'pending' AND next_at <= $2 AND source = 'link' AND claimed_at IS NULL AND depth <= $4
        ORDER BY next_at LIMIT 5000
     ), by_source AS (
       SELECT f.* FROM (SELECT f.*, row_number() OVER (PARTITION BY found_on ORDER BY next_at, domain) AS nth FROM fresh f) f
        WHERE f.nth + (SELECT count(*) FROM spent s WHERE s.found_on = f.found_on) <= $6
     ), by_domain AS (
       SELECT f.* FROM (SELECT f.*, row_number() OVER (PARTITION BY registrable_domain ORDER BY next_at, domain) AS nth_domain FROM by_source f) f
        WHERE f.nth_domain + (SELECT count(*) FROM spent s WHERE s.registrable_domain = f.registrable_domain) <= $7
     ), due AS (
       SELECT f.domain, f.next_at FROM (SELECT f.*, row_number() OVER (ORDER BY next_at, domain) AS nth_all FROM by_domain f) f
        WHERE f.nth_all + (SELECT count(*) FROM spent) <= $5
       UNION ALL
       SELECT domain, next_at FROM catalog_candidates
        WHERE status = 'pending' AND next_at <= $2 AND (source <> 'link' OR claimed_at IS NOT NULL)
        ORDER BY next_at LIMIT $1
     )
     UPDATE catalog_candidates c SET status = 'queued', updated_at = $2, claimed_at = COALESCE(c.claimed_at, $2)
       FROM (SELECT domain FROM due ORDER BY next_at LIMIT $1) chosen
      WHERE c.domain = chosen.domain AND c.status = 'pending'
     RETURNING c.domain`,
    [
      limit,
      now,
      new Date(now.getTime() - BUDGET_WINDOW_HOURS * 3_600_000),
      budget.maxDepth,
      budget.daily,
      budget.perSourceStore,
      budget.perRegistrableDomain,
    ],
  );
  await client.query(
    `SELECT ${JOB_SCHEMA}.add_job($1, json_build_object('domain', d, 'claim', $3::text), job_key => $1 || ':' || d, max_attempts => $4)
       FROM unnest($2::text[]) AS d`,
    [DISCOVER_TASK, rows.map((r) => r.domain), now.toISOString(), CATALOG_MAX_ATTEMPTS],
  );
  if (rows.length < limit) {
    // slots were left: every linked candidate still due is over a budget; it waits and is looked at again later
    await client.query(
      `UPDATE catalog_candidates SET next_at = $2, reason = $3
        WHERE status = 'pending' AND next_at <= $1 AND source = 'link' AND claimed_at IS NULL`,
      [
        now,
        new Date(now.getTime() + OVER_BUDGET_WAIT_MINUTES * 60_000),
        `waits: over discovery's budget (${describeBudget(budget)})`,
      ],
    );
  }
  return rows.length;
}
