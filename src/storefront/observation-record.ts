// What every observation of a real store leaves besides the catalog rows (catalog-writer.ts), in
// the same transaction: the store's schedule (observation_schedule: its next time by the policy of
// observation-policy.ts, its presence, its claim released), one line of observation_log, and the
// domains its homepage links to as discovery candidates. Scrapes, scheduled observations,
// discovery and the observation after a Signals probe all record here, so each counts as an
// observation and the scheduler does not visit the store again before its interval.
import type { Queryable } from '../platform/jobs/job-queue.ts';
import { isSyntheticDomain } from '../stores/domain.ts';
import type { CatalogWrite } from './catalog-writer.ts';
import { offerCandidates } from './catalog-candidates.sql.ts';
import {
  INITIAL_CHANGE_RATE,
  jittered,
  nextChangeRate,
  observationIntervalHours,
  presenceAfterFailure,
  retryAt,
  VANISHED_RECHECK_HOURS,
  type Presence,
} from './observation-policy.ts';
import type { StorefrontObservation } from './read-storefront.ts';
import {
  GONE_KINDS,
  type StorefrontFailure,
  type StorefrontFailureKind,
} from './storefront-failure.ts';

export type ObservationTrigger = 'scheduled' | 'scrape' | 'discovery' | 'probe';

/** Why an observation failed: the storefront's answer, or a fault of ours after the job's last attempt. */
export type ObservationFailure =
  | Pick<StorefrontFailure, 'kind' | 'message' | 'details'>
  | { kind: 'internal'; message: string; details?: undefined };

export interface ObservationContext {
  trigger: ObservationTrigger;
  startedAt: Date;
  now: Date;
  /** the worker process that observed (crawler_workers.id), for the console */
  worker?: string | null;
  /** offer the domains the homepage links to as candidates (CATALOG_DISCOVER_LINKS) */
  discoverLinks?: boolean;
}

interface ScheduleRow {
  change_rate: number;
  presence: Presence;
  consecutive_failures: number;
  gone_failures: number;
  interval_hours: number;
}

const readSchedule = async (db: Queryable, storeId: number) =>
  (
    await db.query<ScheduleRow>(
      'SELECT change_rate, presence::text AS presence, consecutive_failures, gone_failures, interval_hours FROM observation_schedule WHERE store_id = $1 FOR UPDATE',
      [storeId],
    )
  ).rows[0];

/** After a good observation written as `written`: the store is active and next due by the policy. */
export async function recordSuccess(
  db: Queryable,
  written: CatalogWrite,
  observation: Pick<StorefrontObservation, 'domain' | 'myshopifyDomain' | 'linkedDomains'>,
  context: ObservationContext,
): Promise<void> {
  const { now } = context;
  const previous = await readSchedule(db, written.storeId);
  // a first observation has nothing to differ from: it says nothing about how often the store changes
  const changed = written.known && written.changes > 0;
  const changeRate = written.known
    ? nextChangeRate(previous?.change_rate ?? INITIAL_CHANGE_RATE, changed)
    : (previous?.change_rate ?? INITIAL_CHANGE_RATE);
  const intervalHours = observationIntervalHours(written.monthlyVisits, changeRate);
  await db.query(
    `INSERT INTO observation_schedule AS o (store_id, next_at, queued_at, interval_hours, change_rate, observations, last_observed_at,
       last_changed_at, last_attempt_at, presence, presence_since, consecutive_failures, gone_failures, failure_kind, failure_reason,
       moved_to, myshopify_domain)
     VALUES ($1, $2, NULL, $3, $4, 1, $5, CASE WHEN $6 THEN $5::timestamptz END, $5, 'active', $5, 0, 0, NULL, NULL, NULL, $7)
     ON CONFLICT (store_id) DO UPDATE SET next_at = excluded.next_at, queued_at = NULL, interval_hours = excluded.interval_hours,
       change_rate = excluded.change_rate, observations = o.observations + 1, last_observed_at = excluded.last_observed_at,
       last_changed_at = COALESCE(excluded.last_changed_at, o.last_changed_at), last_attempt_at = excluded.last_attempt_at,
       presence = 'active', presence_since = CASE WHEN o.presence = 'active' THEN o.presence_since ELSE excluded.presence_since END,
       consecutive_failures = 0, gone_failures = 0, failure_kind = NULL, failure_reason = NULL, moved_to = NULL,
       myshopify_domain = COALESCE(excluded.myshopify_domain, o.myshopify_domain)`,
    [
      written.storeId,
      jittered(now, intervalHours),
      intervalHours,
      changeRate,
      now,
      changed,
      observation.myshopifyDomain,
    ],
  );
  await logObservation(
    db,
    {
      storeId: written.storeId,
      domain: observation.domain,
      outcome: 'ok',
      changes: written.changes,
    },
    context,
  );
  if (context.discoverLinks !== false && observation.linkedDomains.length > 0) {
    await offerCandidates(db, observation.linkedDomains, {
      source: 'link',
      foundOn: observation.domain,
      now,
    });
  }
}

/**
 * After a failed observation of a catalog store (`storeId`), or of a domain the catalog does not
 * hold (storeId null: only the log line). The store backs off, and vanishes after enough failures
 * saying it is gone; a catalog store that moved offers its new host as a candidate.
 */
export async function recordFailure(
  db: Queryable,
  target: { storeId: number | null; domain: string },
  failure: ObservationFailure,
  context: ObservationContext,
): Promise<void> {
  const { now } = context;
  await logObservation(
    db,
    { storeId: target.storeId, domain: target.domain, outcome: failure.kind, changes: 0 },
    context,
  );
  // a catalog store (or a discovered candidate) that moved offers its new host; a scrape of a domain
  // the catalog does not hold leaves that to its caller, whom the failure reason names the host
  const offersNewHost = target.storeId !== null || context.trigger === 'discovery';
  if (failure.kind === 'moved' && failure.details?.movedTo && offersNewHost) {
    await offerCandidates(db, [failure.details.movedTo], {
      source: 'moved',
      foundOn: target.domain,
      now,
    });
  }
  if (target.storeId === null || isSyntheticDomain(target.domain)) return;
  const {
    rows: [store],
  } = await db.query<{ monthly_visits: number }>(
    'SELECT monthly_visits FROM stores WHERE id = $1',
    [target.storeId],
  );
  if (!store) return;
  const previous = await readSchedule(db, target.storeId);
  const failures = (previous?.consecutive_failures ?? 0) + 1;
  const gone =
    (previous?.gone_failures ?? 0) +
    (GONE_KINDS.has(failure.kind as StorefrontFailureKind) ? 1 : 0);
  const presence = previous?.presence === 'vanished' ? 'vanished' : presenceAfterFailure(gone);
  const intervalHours =
    previous?.interval_hours ?? observationIntervalHours(store.monthly_visits, INITIAL_CHANGE_RATE);
  const nextAt =
    presence === 'vanished'
      ? jittered(now, VANISHED_RECHECK_HOURS)
      : retryAt(now, failures, intervalHours, failure.details?.retryAfterSeconds);
  await db.query(
    `INSERT INTO observation_schedule AS o (store_id, next_at, queued_at, interval_hours, last_attempt_at, presence, presence_since,
       consecutive_failures, gone_failures, failure_kind, failure_reason, moved_to)
     VALUES ($1, $2, NULL, $3, $4, $5::presence, $4, $6, $7, $8, $9, $10)
     ON CONFLICT (store_id) DO UPDATE SET next_at = excluded.next_at, queued_at = NULL, last_attempt_at = excluded.last_attempt_at,
       presence = excluded.presence,
       presence_since = CASE WHEN o.presence = excluded.presence THEN o.presence_since ELSE excluded.presence_since END,
       consecutive_failures = excluded.consecutive_failures, gone_failures = excluded.gone_failures,
       failure_kind = excluded.failure_kind, failure_reason = excluded.failure_reason, moved_to = excluded.moved_to`,
    [
      target.storeId,
      nextAt,
      intervalHours,
      now,
      presence,
      failures,
      gone,
      failure.kind,
      failure.message.slice(0, 1_000),
      failure.kind === 'moved' ? (failure.details?.movedTo ?? null) : null,
    ],
  );
}

async function logObservation(
  db: Queryable,
  line: { storeId: number | null; domain: string; outcome: string; changes: number },
  context: ObservationContext,
): Promise<void> {
  await db.query(
    `INSERT INTO observation_log (store_id, domain, trigger, outcome, changes, started_at, finished_at, duration_ms, worker)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      line.storeId,
      line.domain,
      context.trigger,
      line.outcome,
      line.changes,
      context.startedAt,
      context.now,
      Math.max(0, context.now.getTime() - context.startedAt.getTime()),
      context.worker ?? null,
    ],
  );
}
