// The app trend rollups (app_trend_months, app_install_days, store_observed_months; see their
// migration), kept exact inside the observation writer's transaction: an install period opened or
// closed adds to its app's month and day, a store first seen adds to its month's store count, and a
// store whose vertical or country changes moves its whole history from its old rows to its new ones
// (a trend by vertical or country counts stores by their current vertical and country, as every
// other filter does). rebuildAppTrendRollups recomputes the same counts from store_app_periods and
// stores: after a seed, and as the reference the incremental counts are tested against.
import type { Queryable } from '../platform/database/sql.ts';

/** One store's dimensions as the rollups key them: lower-cased vertical, upper-cased country. */
export interface TrendDimensions {
  vertical: string | null;
  countryCode: string | null;
}

/** Changes to one app's counts on one UTC day. */
export interface PeriodEvent {
  appId: number;
  day: string;
  installs: number;
  newlyObserved: number;
  uninstalls: number;
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** The rollup rows (vertical, country) a store of these dimensions counts in, each with a sign (SQL lower-cases the vertical and upper-cases the country, as the rebuild does). */
function dimensionRows(d: TrendDimensions, sign: number) {
  const vertical = d.vertical;
  const country = d.countryCode;
  const rows: [string, string, number][] = [['', '', sign]];
  if (vertical !== null) rows.push([vertical, '', sign]);
  if (country !== null) rows.push(['', country, sign]);
  if (vertical !== null && country !== null) rows.push([vertical, country, sign]);
  return rows;
}

const sameDimensions = (a: TrendDimensions, b: TrendDimensions) =>
  (a.vertical?.toLowerCase() ?? null) === (b.vertical?.toLowerCase() ?? null) &&
  (a.countryCode?.toUpperCase() ?? null) === (b.countryCode?.toUpperCase() ?? null);

// keys in a fixed order (ORDER BY), so two writers add to shared rows in the same order; a row a move
// leaves unchanged (the whole catalog's, when only the country changed) is not written, nor locked
const ADD_MONTHS = `INSERT INTO app_trend_months (app_id, vertical, country_code, month, installs, newly_observed, uninstalls)
  SELECT e.app_id, lower(d.v), upper(d.c), date_trunc('month', e.day)::date AS month,
         sum(d.sign * e.installs)::int, sum(d.sign * e.newly_observed)::int, sum(d.sign * e.uninstalls)::int
    FROM unnest($1::int[], $2::date[], $3::int[], $4::int[], $5::int[]) e(app_id, day, installs, newly_observed, uninstalls)
   CROSS JOIN unnest($6::text[], $7::text[], $8::int[]) d(v, c, sign)
   GROUP BY 1, 2, 3, 4
  HAVING sum(d.sign * e.installs) <> 0 OR sum(d.sign * e.newly_observed) <> 0 OR sum(d.sign * e.uninstalls) <> 0
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (app_id, vertical, country_code, month) DO UPDATE SET
    installs = app_trend_months.installs + excluded.installs,
    newly_observed = app_trend_months.newly_observed + excluded.newly_observed,
    uninstalls = app_trend_months.uninstalls + excluded.uninstalls`;

const ADD_DAYS = `INSERT INTO app_install_days (app_id, day, installs, newly_observed, uninstalls)
  SELECT e.app_id, e.day, sum(e.installs)::int, sum(e.newly_observed)::int, sum(e.uninstalls)::int
    FROM unnest($1::int[], $2::date[], $3::int[], $4::int[], $5::int[]) e(app_id, day, installs, newly_observed, uninstalls)
   GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (app_id, day) DO UPDATE SET
    installs = app_install_days.installs + excluded.installs,
    newly_observed = app_install_days.newly_observed + excluded.newly_observed,
    uninstalls = app_install_days.uninstalls + excluded.uninstalls`;

const ADD_STORES = `INSERT INTO store_observed_months (vertical, country_code, month, stores)
  SELECT lower(d.v), upper(d.c), date_trunc('month', $1::date)::date, sum(d.sign)::int
    FROM unnest($2::text[], $3::text[], $4::int[]) d(v, c, sign)
   GROUP BY 1, 2 HAVING sum(d.sign) <> 0 ORDER BY 1, 2
  ON CONFLICT (vertical, country_code, month) DO UPDATE SET stores = store_observed_months.stores + excluded.stores`;

const eventColumns = (events: readonly PeriodEvent[]) => [
  events.map((e) => e.appId),
  events.map((e) => e.day),
  events.map((e) => e.installs),
  events.map((e) => e.newlyObserved),
  events.map((e) => e.uninstalls),
];

const dimensionColumns = (rows: [string, string, number][]) => [
  rows.map((r) => r[0]),
  rows.map((r) => r[1]),
  rows.map((r) => r[2]),
];

async function addToMonths(
  db: Queryable,
  events: readonly PeriodEvent[],
  dims: [string, string, number][],
) {
  if (events.length === 0) return;
  await db.query(ADD_MONTHS, [...eventColumns(events), ...dimensionColumns(dims)]);
}

/**
 * Count the install periods one observation opened and closed on a store (its current dimensions,
 * read from its row). Call with the periods actually inserted and updated, in the same transaction.
 */
export async function countPeriodChanges(
  db: Queryable,
  storeId: number,
  changes: {
    opened: readonly { appId: number; seenInstalling: boolean }[];
    closed: readonly number[];
  },
  at: Date,
): Promise<void> {
  const day = dayOf(at);
  const events: PeriodEvent[] = [
    ...changes.opened.map((o) => ({
      appId: o.appId,
      day,
      installs: o.seenInstalling ? 1 : 0,
      newlyObserved: o.seenInstalling ? 0 : 1,
      uninstalls: 0,
    })),
    ...changes.closed.map((appId) => ({
      appId,
      day,
      installs: 0,
      newlyObserved: 0,
      uninstalls: 1,
    })),
  ].sort((a, b) => a.appId - b.appId);
  if (events.length === 0) return;
  const {
    rows: [store],
  } = await db.query<{ vertical: string | null; country_code: string | null }>(
    'SELECT vertical, country_code FROM stores WHERE id = $1',
    [storeId],
  );
  const dims = dimensionRows({ vertical: store!.vertical, countryCode: store!.country_code }, 1);
  await addToMonths(db, events, dims);
  await db.query(ADD_DAYS, eventColumns(events));
}

/**
 * Keep the store counts and a store's place in the dimensions after its row is written: a new store
 * counts in the month it was first seen; a store whose vertical or country changed moves its count
 * and its install periods from its old rows to its new ones.
 */
export async function countStoreDimensions(
  db: Queryable,
  storeId: number,
  before: TrendDimensions | null,
  after: TrendDimensions,
  firstSeenAt: Date | null,
): Promise<void> {
  if (before === null) {
    await db.query(ADD_STORES, [dayOf(firstSeenAt!), ...dimensionColumns(dimensionRows(after, 1))]);
    return;
  }
  if (sameDimensions(before, after)) return;
  const moves = [...dimensionRows(before, -1), ...dimensionRows(after, 1)];
  const {
    rows: [store],
  } = await db.query<{ first_seen_at: Date }>('SELECT first_seen_at FROM stores WHERE id = $1', [
    storeId,
  ]);
  await db.query(ADD_STORES, [dayOf(store!.first_seen_at), ...dimensionColumns(moves)]);
  const { rows } = await db.query<{
    app_id: number;
    day: string;
    installs: number;
    newly_observed: number;
    uninstalls: number;
  }>(
    `SELECT app_id, day::text AS day, sum(installs)::int AS installs, sum(newly_observed)::int AS newly_observed,
            sum(uninstalls)::int AS uninstalls
       FROM (SELECT app_id, (installed_at AT TIME ZONE 'UTC')::date AS day, seen_installing::int AS installs,
                    (NOT seen_installing)::int AS newly_observed, 0 AS uninstalls
               FROM store_app_periods WHERE store_id = $1
             UNION ALL
             SELECT app_id, (uninstalled_at AT TIME ZONE 'UTC')::date, 0, 0, 1
               FROM store_app_periods WHERE store_id = $1 AND uninstalled_at IS NOT NULL) e
      GROUP BY 1, 2 ORDER BY 1, 2`,
    [storeId],
  );
  await addToMonths(
    db,
    rows.map((r) => ({
      appId: r.app_id,
      day: r.day,
      installs: r.installs,
      newlyObserved: r.newly_observed,
      uninstalls: r.uninstalls,
    })),
    moves,
  );
}

// The migration that created the tables runs the same three statements on an existing catalog.
const REBUILD = [
  'TRUNCATE app_trend_months, app_install_days, store_observed_months',
  `INSERT INTO app_trend_months (app_id, vertical, country_code, month, installs, newly_observed, uninstalls)
   SELECT e.app_id, COALESCE(e.v, ''), COALESCE(e.c, ''), e.month,
          sum(e.installs)::int, sum(e.newly_observed)::int, sum(e.uninstalls)::int
     FROM (
       SELECT p.app_id, lower(s.vertical) AS v, upper(s.country_code) AS c,
              date_trunc('month', p.installed_at AT TIME ZONE 'UTC')::date AS month,
              p.seen_installing::int AS installs, (NOT p.seen_installing)::int AS newly_observed, 0 AS uninstalls
         FROM store_app_periods p JOIN stores s ON s.id = p.store_id
       UNION ALL
       SELECT p.app_id, lower(s.vertical), upper(s.country_code),
              date_trunc('month', p.uninstalled_at AT TIME ZONE 'UTC')::date, 0, 0, 1
         FROM store_app_periods p JOIN stores s ON s.id = p.store_id
        WHERE p.uninstalled_at IS NOT NULL) e
    GROUP BY GROUPING SETS ((e.app_id, e.month), (e.app_id, e.month, e.v), (e.app_id, e.month, e.c), (e.app_id, e.month, e.v, e.c))
   HAVING (GROUPING(e.v) = 1 OR e.v IS NOT NULL) AND (GROUPING(e.c) = 1 OR e.c IS NOT NULL)`,
  `INSERT INTO app_install_days (app_id, day, installs, newly_observed, uninstalls)
   SELECT e.app_id, e.day, sum(e.installs)::int, sum(e.newly_observed)::int, sum(e.uninstalls)::int
     FROM (
       SELECT p.app_id, (p.installed_at AT TIME ZONE 'UTC')::date AS day,
              p.seen_installing::int AS installs, (NOT p.seen_installing)::int AS newly_observed, 0 AS uninstalls
         FROM store_app_periods p
       UNION ALL
       SELECT p.app_id, (p.uninstalled_at AT TIME ZONE 'UTC')::date, 0, 0, 1
         FROM store_app_periods p WHERE p.uninstalled_at IS NOT NULL) e
    GROUP BY e.app_id, e.day`,
  `INSERT INTO store_observed_months (vertical, country_code, month, stores)
   SELECT COALESCE(e.v, ''), COALESCE(e.c, ''), e.month, count(*)::int
     FROM (SELECT lower(s.vertical) AS v, upper(s.country_code) AS c,
                  date_trunc('month', s.first_seen_at AT TIME ZONE 'UTC')::date AS month
             FROM stores s) e
    GROUP BY GROUPING SETS ((e.month), (e.month, e.v), (e.month, e.c), (e.month, e.v, e.c))
   HAVING (GROUPING(e.v) = 1 OR e.v IS NOT NULL) AND (GROUPING(e.c) = 1 OR e.c IS NOT NULL)`,
];

/** Recompute every trend rollup from store_app_periods and stores (in the caller's transaction). */
export async function rebuildAppTrendRollups(db: Queryable): Promise<{ durationMs: number }> {
  const started = performance.now();
  for (const statement of REBUILD) await db.query(statement);
  return { durationMs: Math.round(performance.now() - started) };
}
