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
import {
  resolveStoreFilter,
  storeFilterConditions,
  type ResolvedStoreFilter,
} from '../stores/store-filter.ts';
import { filterValues } from './alert-filter.ts';

export const ALERT_BATCH_TASK = 'alert-webhook-batch';
/** graphile-worker's key of an alert's pending batch job: one at a time per alert */
export const alertBatchJobKey = (alertId: number) => `alert-batch:${alertId}`;

/** one statement evaluates at most this many alerts (PostgreSQL allows 1,664 result columns) */
const ALERTS_PER_STATEMENT = 500;
/** how long a filter's q stays resolved against the store-name vocabulary between observations */
const TEXT_RESOLUTION_TTL_MS = 60_000;

/** What the store will be after the write, as far as the writer knows it before writing. */
export interface ObservedFacts {
  appSlugs: readonly string[];
  countryCode: string | null;
  vertical: string | null;
  industry: string | null;
  category: string | null;
  theme: string | null;
  /** a store new to the catalog, or renamed: its words are new to the name vocabulary */
  newName: boolean;
}

/**
 * Alerts that can match the store after the write: a necessary condition read from the stored
 * JSON (app filters against the observed apps, name filters against the values the writer is about
 * to write); the SQL evaluation decides. Filters it does not name are always evaluated.
 */
export const ALERT_CANDIDATES = `SELECT id, filter, callback_url IS NOT NULL AS has_callback FROM alerts
  WHERE (NOT filter ? 'app' OR filter->'app' <@ to_jsonb($1::text[]))
    AND (NOT filter ? 'anyApp' OR filter->'anyApp' ?| $1::text[])
    AND (NOT filter ? 'notApp' OR NOT filter->'notApp' ?| $1::text[])
    AND (NOT filter ? 'countryCode' OR upper(filter->>'countryCode') = upper($2))
    AND (NOT filter ? 'vertical' OR lower(filter->>'vertical') = lower($3))
    AND (NOT filter ? 'industry' OR lower(filter->>'industry') = lower($4))
    AND (NOT filter ? 'category' OR lower(filter->>'category') = lower($5))
    AND (NOT filter ? 'theme' OR lower(filter->>'theme') = lower($6))
  ORDER BY id`;

interface CandidateRow {
  id: number;
  filter: Record<string, unknown>;
  has_callback: boolean;
}

interface Statement {
  text: string;
  values: unknown[];
  ids: number[];
}

/** The alerts one observation is checked against, with the statements that evaluate them for its store. */
export interface AlertCheck {
  rows: CandidateRow[];
  statements: Statement[];
  /** alert ids that held for the store before the write */
  before: Set<number>;
  newName: boolean;
}

// q is resolved against the vocabulary (a query); per alert it is kept a minute between observations
const resolvedText = new Map<number, { json: string; at: number; filter: ResolvedStoreFilter }>();

async function resolve(
  client: pg.PoolClient,
  alert: CandidateRow,
  fresh: boolean,
): Promise<ResolvedStoreFilter | null> {
  if (alert.filter.q === undefined) return resolveStoreFilter(client, filterValues(alert.filter));
  const json = JSON.stringify(alert.filter);
  const kept = resolvedText.get(alert.id);
  if (!fresh && kept && kept.json === json && Date.now() - kept.at < TEXT_RESOLUTION_TTL_MS)
    return kept.filter;
  const filter = (await resolveStoreFilter(client, filterValues(alert.filter)))!;
  resolvedText.set(alert.id, { json, at: Date.now(), filter });
  return filter;
}

async function buildStatements(
  client: pg.PoolClient,
  rows: CandidateRow[],
  fresh: boolean,
): Promise<Statement[]> {
  const statements: Statement[] = [];
  for (let start = 0; start < rows.length; start += ALERTS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ALERTS_PER_STATEMENT);
    const params = new SqlParams();
    const store = params.add(0);
    const columns: string[] = [];
    for (const [index, alert] of chunk.entries()) {
      const conditions = storeFilterConditions(await resolve(client, alert, fresh), params, false);
      columns.push(`(${conditions.length ? conditions.join(' AND ') : 'true'}) AS m${index}`);
    }
    statements.push({
      text: `SELECT ${columns.join(', ')} FROM stores s WHERE s.id = ${store} AND ${LISTED_STORE}`,
      values: params.values,
      ids: chunk.map((a) => a.id),
    });
  }
  return statements;
}

/**
 * Before the write: the candidate alerts for what the observation will write, each filter turned
 * into SQL, and which of them the store (null: not in the catalog yet) matches now.
 */
export async function checkAlertsBefore(
  client: pg.PoolClient,
  storeId: number | null,
  facts: ObservedFacts,
): Promise<AlertCheck> {
  const { rows } = await client.query<CandidateRow>(ALERT_CANDIDATES, [
    facts.appSlugs,
    facts.countryCode,
    facts.vertical,
    facts.industry,
    facts.category,
    facts.theme,
  ]);
  const check: AlertCheck = {
    rows,
    statements: await buildStatements(client, rows, false),
    before: new Set(),
    newName: facts.newName,
  };
  if (storeId !== null) check.before = await matchingAlerts(client, check.statements, storeId);
  return check;
}

async function matchingAlerts(
  client: pg.PoolClient,
  statements: Statement[],
  storeId: number,
): Promise<Set<number>> {
  const matching = new Set<number>();
  for (const statement of statements) {
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
  if (check.rows.length === 0) return [];
  // a new or renamed store's words entered the name vocabulary with this write: q is resolved again
  const statements =
    check.newName && check.rows.some((r) => r.filter.q !== undefined)
      ? await buildStatements(client, check.rows, true)
      : check.statements;
  const after = await matchingAlerts(client, statements, storeId);
  const newly = [...after].filter((id) => !check.before.has(id));
  if (newly.length === 0) return [];
  const { rows } = await client.query<{ alert_id: number }>(
    `INSERT INTO alert_matches (alert_id, store_id, matched_at)
     SELECT unnest($1::int[]), $2, $3
     ON CONFLICT (alert_id, store_id) DO NOTHING RETURNING alert_id`,
    [newly, storeId, now],
  );
  const withCallback = new Set(check.rows.filter((r) => r.has_callback).map((r) => r.id));
  const recorded = rows.map((r) => r.alert_id);
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
