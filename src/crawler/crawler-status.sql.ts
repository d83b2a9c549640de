// What the operations console (and `npm run catalog -- status`) shows of the crawler, read from the
// database alone so every replica answers the same: the schedule (stores by presence, due, in
// flight), discovery candidates by status, the durable queue's depth by kind of job, the recent
// observations (per minute, by outcome, durations), how fresh the catalog's observations are, and
// the worker processes with the settings they run.
import { JOB_SCHEMA, type Queryable } from '../platform/jobs/job-queue.ts';

export interface CrawlerStatus {
  at: Date;
  stores: {
    scheduled: number;
    active: number;
    failing: number;
    vanished: number;
    due: number;
    inFlight: number;
  };
  candidates: {
    pending: number;
    queued: number;
    accepted: number;
    duplicate: number;
    rejected: number;
  };
  queue: Array<{
    task: string;
    waiting: number;
    scheduled: number;
    running: number;
    failed: number;
  }>;
  recent: {
    minutes: number;
    observations: number;
    perMinute: Array<{ minute: Date; ok: number; failed: number }>;
    outcomes: Array<{ outcome: string; trigger: string; count: number }>;
    p50Ms: number | null;
    p99Ms: number | null;
  };
  freshness: Array<{ bucket: string; stores: number }>;
  workers: Array<{
    id: string;
    host: string;
    pid: number;
    concurrency: number;
    globalConcurrency: number;
    startedAt: Date;
    seenAt: Date;
    settings: unknown;
  }>;
}

/** Ages of the last good observation, in the order the console draws them. */
export const FRESHNESS_BUCKETS = [
  'under 1 hour',
  '1 to 24 hours',
  '1 to 3 days',
  '3 to 7 days',
  'over 7 days',
  'never',
] as const;

export async function crawlerStatus(
  db: Queryable,
  now: Date,
  recentMinutes = 60,
): Promise<CrawlerStatus> {
  const since = new Date(now.getTime() - recentMinutes * 60_000);
  const [stores, candidates, queue, perMinute, outcomes, durations, freshness, workers] =
    await Promise.all([
      db.query(
        `SELECT count(*)::int AS scheduled,
              count(*) FILTER (WHERE presence = 'active')::int AS active,
              count(*) FILTER (WHERE presence = 'failing')::int AS failing,
              count(*) FILTER (WHERE presence = 'vanished')::int AS vanished,
              count(*) FILTER (WHERE queued_at IS NULL AND next_at <= $1)::int AS due,
              count(*) FILTER (WHERE queued_at IS NOT NULL)::int AS "inFlight"
         FROM observation_schedule`,
        [now],
      ),
      db.query<{ status: string; n: number }>(
        'SELECT status::text AS status, count(*)::int AS n FROM catalog_candidates GROUP BY status',
      ),
      db.query(
        `SELECT task_identifier AS task,
              count(*) FILTER (WHERE locked_at IS NULL AND attempts < max_attempts AND run_at <= now())::int AS waiting,
              count(*) FILTER (WHERE locked_at IS NULL AND attempts < max_attempts AND run_at > now())::int AS scheduled,
              count(*) FILTER (WHERE locked_at IS NOT NULL)::int AS running,
              count(*) FILTER (WHERE locked_at IS NULL AND attempts >= max_attempts)::int AS failed
         FROM ${JOB_SCHEMA}.jobs GROUP BY task_identifier ORDER BY task_identifier`,
      ),
      db.query(
        `SELECT date_trunc('minute', finished_at) AS minute, count(*) FILTER (WHERE outcome = 'ok')::int AS ok,
              count(*) FILTER (WHERE outcome <> 'ok')::int AS failed
         FROM observation_log WHERE finished_at > $1 GROUP BY 1 ORDER BY 1`,
        [since],
      ),
      db.query(
        `SELECT outcome, trigger, count(*)::int AS count FROM observation_log WHERE finished_at > $1
        GROUP BY outcome, trigger ORDER BY count(*) DESC, outcome, trigger`,
        [since],
      ),
      db.query<{ n: number; p50: number | null; p99: number | null }>(
        `SELECT count(*)::int AS n, percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50,
              percentile_disc(0.99) WITHIN GROUP (ORDER BY duration_ms) AS p99
         FROM observation_log WHERE finished_at > $1`,
        [since],
      ),
      db.query<{ bucket: string; stores: number }>(
        `SELECT CASE WHEN last_observed_at IS NULL THEN 'never'
                   WHEN last_observed_at > $1::timestamptz - interval '1 hour' THEN 'under 1 hour'
                   WHEN last_observed_at > $1::timestamptz - interval '1 day' THEN '1 to 24 hours'
                   WHEN last_observed_at > $1::timestamptz - interval '3 days' THEN '1 to 3 days'
                   WHEN last_observed_at > $1::timestamptz - interval '7 days' THEN '3 to 7 days'
                   ELSE 'over 7 days' END AS bucket, count(*)::int AS stores
         FROM observation_schedule GROUP BY 1`,
        [now],
      ),
      db.query(
        `SELECT id, host, pid, concurrency, global_concurrency AS "globalConcurrency", started_at AS "startedAt", seen_at AS "seenAt", settings
         FROM crawler_workers ORDER BY started_at`,
      ),
    ]);
  const byStatus = new Map(candidates.rows.map((r) => [r.status, r.n]));
  const byBucket = new Map(freshness.rows.map((r) => [r.bucket, r.stores]));
  return {
    at: now,
    stores: stores.rows[0],
    candidates: {
      pending: byStatus.get('pending') ?? 0,
      queued: byStatus.get('queued') ?? 0,
      accepted: byStatus.get('accepted') ?? 0,
      duplicate: byStatus.get('duplicate') ?? 0,
      rejected: byStatus.get('rejected') ?? 0,
    },
    queue: queue.rows,
    recent: {
      minutes: recentMinutes,
      observations: durations.rows[0]!.n,
      perMinute: perMinute.rows,
      outcomes: outcomes.rows,
      p50Ms: durations.rows[0]!.p50,
      p99Ms: durations.rows[0]!.p99,
    },
    freshness: FRESHNESS_BUCKETS.map((bucket) => ({ bucket, stores: byBucket.get(bucket) ?? 0 })),
    workers: workers.rows,
  };
}
