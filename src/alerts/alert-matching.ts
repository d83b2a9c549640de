// Alert matches, recorded by the one observation writer inside its transaction (which holds the
// store's row lock): the alerts an observation could concern are evaluated for that one store before
// the write and after it, with the SQL the store search builds from the same filter
// (store-filter.ts); an alert that did not hold before and holds after gets one match row (unique
// per alert and store, so a race or a repeat never duplicates it), and, with a callbackUrl, a
// webhook batch job in the same transaction, so a committed match is never left unsent.
import type pg from 'pg';
import { SqlParams } from '../platform/database/sql.ts';
import { enqueueJob } from '../platform/jobs/job-queue.ts';
import { LISTED_STORE } from '../stores/listed-stores.ts';
import { resolveStoreFilter, storeFilterConditions } from '../stores/store-filter.ts';
import { filterValues } from './alert-filter.ts';

export const ALERT_BATCH_TASK = 'alert-webhook-batch';
/** graphile-worker's key of an alert's pending batch job: one at a time per alert */
export const alertBatchJobKey = (alertId: number) => `alert-batch:${alertId}`;

/** one statement evaluates at most this many alerts (PostgreSQL allows 1,664 result columns) */
const ALERTS_PER_STATEMENT = 500;

interface Candidate {
  id: number;
  hasCallback: boolean;
}

/** The alerts one observation is checked against, with the statements that evaluate them for its store. */
export interface AlertCheck {
  candidates: Candidate[];
  statements: { text: string; values: unknown[]; ids: number[] }[];
  /** alert ids that held for the store before the write */
  before: Set<number>;
}

/**
 * Only alerts whose app filters the observed app set can satisfy can newly match: `app` (all of) must
 * all be observed, `anyApp` one of them, `notApp` none (a necessary condition read from the stored
 * JSON; the SQL evaluation decides).
 */
const CANDIDATES = `SELECT id, filter, callback_url IS NOT NULL AS has_callback FROM alerts
  WHERE (NOT filter ? 'app' OR filter->'app' <@ to_jsonb($1::text[]))
    AND (NOT filter ? 'anyApp' OR filter->'anyApp' ?| $1::text[])
    AND (NOT filter ? 'notApp' OR NOT filter->'notApp' ?| $1::text[])
  ORDER BY id`;

/**
 * Before the write: the candidate alerts for the observed app slugs, each filter resolved and turned
 * into SQL once, and which of them the store (null: not in the catalog yet) matches now.
 */
export async function checkAlertsBefore(
  client: pg.PoolClient,
  storeId: number | null,
  observedAppSlugs: readonly string[],
): Promise<AlertCheck> {
  const { rows } = await client.query<{ id: number; filter: unknown; has_callback: boolean }>(
    CANDIDATES,
    [observedAppSlugs],
  );
  const statements: AlertCheck['statements'] = [];
  for (let start = 0; start < rows.length; start += ALERTS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ALERTS_PER_STATEMENT);
    const params = new SqlParams();
    const store = params.add(0);
    const columns: string[] = [];
    for (const [index, alert] of chunk.entries()) {
      const resolved = await resolveStoreFilter(client, filterValues(alert.filter));
      const conditions = storeFilterConditions(resolved, params, false);
      columns.push(`(${conditions.length ? conditions.join(' AND ') : 'true'}) AS m${index}`);
    }
    statements.push({
      text: `SELECT ${columns.join(', ')} FROM stores s WHERE s.id = ${store} AND ${LISTED_STORE}`,
      values: params.values,
      ids: chunk.map((a) => a.id),
    });
  }
  const check: AlertCheck = {
    candidates: rows.map((r) => ({ id: r.id, hasCallback: r.has_callback })),
    statements,
    before: new Set(),
  };
  if (storeId !== null) check.before = await matchingAlerts(client, check, storeId);
  return check;
}

async function matchingAlerts(
  client: pg.PoolClient,
  check: AlertCheck,
  storeId: number,
): Promise<Set<number>> {
  const matching = new Set<number>();
  for (const statement of check.statements) {
    const values = [storeId, ...statement.values.slice(1)];
    const {
      rows: [row],
    } = await client.query<Record<string, boolean | null>>(statement.text, values);
    if (!row) continue;
    statement.ids.forEach((id, index) => {
      if (row[`m${index}`] === true) matching.add(id);
    });
  }
  return matching;
}

/**
 * After the write: records a match for every alert the store matches now and did not before, and
 * queues the webhook batch of each such alert that has a callbackUrl. Returns the alert ids matched.
 */
export async function recordAlertMatches(
  client: pg.PoolClient,
  check: AlertCheck,
  storeId: number,
  now: Date,
): Promise<number[]> {
  if (check.candidates.length === 0) return [];
  const after = await matchingAlerts(client, check, storeId);
  const newly = [...after].filter((id) => !check.before.has(id));
  if (newly.length === 0) return [];
  const { rows } = await client.query<{ alert_id: number }>(
    `INSERT INTO alert_matches (alert_id, store_id, matched_at)
     SELECT unnest($1::int[]), $2, $3
     ON CONFLICT (alert_id, store_id) DO NOTHING RETURNING alert_id`,
    [newly, storeId, now],
  );
  const recorded = rows.map((r) => r.alert_id);
  const withCallback = new Set(check.candidates.filter((c) => c.hasCallback).map((c) => c.id));
  for (const alertId of recorded) {
    if (!withCallback.has(alertId)) continue;
    // a batch already pending keeps its time (at most one a minute): this match rides along with it
    await enqueueJob(
      client,
      ALERT_BATCH_TASK,
      { alertId },
      { jobKey: alertBatchJobKey(alertId), keepPendingRunAt: true },
    );
  }
  return recorded;
}
