// Whole-catalog aggregates, pre-computed. At a million stores the grouped rows of the store search
// and the analytics overview would scan and sort the whole stores table on every request (seconds);
// store_rollups holds every group of every grouping set the API asks for, with every metric, and is
// recomputed by a job (rollup-jobs.ts) every ROLLUP_REFRESH_MINUTES and by the seeder after each
// load. Readers use it only while it is at most ROLLUP_MAX_AGE_MINUTES old (the documented
// freshness) and only for requests without a filter; anything else runs the live query. Like the
// live queries, they leave out the stores the crawler found vanished.
import { queryRows, type Queryable } from '../../platform/database/sql.ts';
import { buildStoreFacetCounts } from './store-facet-counts.ts';
import { LISTED_STORE } from '../listed-stores.ts';

/** the job recomputes the rollups once they are this old */
export const ROLLUP_REFRESH_MINUTES = 10;
/** requests never see rollups older than this; past it they run the live query */
export const ROLLUP_MAX_AGE_MINUTES = 15;

/** The dimensions, in the fixed order their names take in store_rollups.dimensions. */
export const ROLLUP_DIMENSIONS = ['country', 'vertical', 'industry', 'category'] as const;
export type RollupDimension = (typeof ROLLUP_DIMENSIONS)[number];

/** The store_rollups column (alias r) holding each dimension's value. */
export const ROLLUP_COLUMN: Record<RollupDimension, string> = {
  country: 'r.country_code',
  vertical: 'r.vertical',
  industry: 'r.industry',
  category: 'r.category',
};

/** store_rollups.dimensions of a grouping set: "" (whole catalog), "country", "country+category", ... */
export const rollupDimensions = (dimensions: readonly RollupDimension[]): string =>
  ROLLUP_DIMENSIONS.filter((d) => dimensions.includes(d)).join('+');

/** SQL condition: the rollups were computed at most ROLLUP_MAX_AGE_MINUTES ago. */
export const FRESH_ROLLUPS = `EXISTS (SELECT 1 FROM store_rollup_refreshes
  WHERE refreshed_at > now() - make_interval(mins => ${ROLLUP_MAX_AGE_MINUTES}))`;

/** Whether the rollups were computed less than `minutes` ago. */
export async function rollupsFresherThan(db: Queryable, minutes: number): Promise<boolean> {
  const { rows } = await db.query<{ fresh: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM store_rollup_refreshes WHERE refreshed_at > now() - make_interval(mins => $1)) AS fresh`,
    [minutes],
  );
  return rows[0]?.fresh === true;
}

const GROUPING_SETS = [
  [],
  ...ROLLUP_DIMENSIONS.map((d) => [d]),
  ...ROLLUP_DIMENSIONS.flatMap((d, i) => ROLLUP_DIMENSIONS.slice(i + 1).map((e) => [d, e])),
];

// The same expressions as the live queries (src/stores/store-groups.sql.ts,
// src/analytics/analytics.sql.ts), so a rolled-up figure equals the live one to the last bit;
// the median is percentile_cont, as live.
const SOURCE: Record<RollupDimension, string> = {
  country: 'country_code',
  vertical: 'vertical',
  industry: 'industry',
  category: 'category',
};
const groupingSet = (set: readonly RollupDimension[]) =>
  `(${set.map((d) => SOURCE[d]).join(', ')})`;
const dimensionsLabel = `concat_ws('+', ${ROLLUP_DIMENSIONS.map((d) => `CASE WHEN GROUPING(${SOURCE[d]}) = 0 THEN '${d}' END`).join(', ')})`;

const BUILD = `
  INSERT INTO store_rollups (id, dimensions, country_code, vertical, industry, category, stores, dropshippers,
    stores_with_traffic, revenue_high_sum, revenue_high_mean, revenue_high_median, revenue_high_max, revenue_high_min,
    visits_sum, visits_mean, visits_median, visits_max, visits_min, ad_spend_sum, service_rating_mean)
  SELECT row_number() OVER ()::int, ${dimensionsLabel}, country_code, vertical, industry, category,
         count(*)::int, count(*) FILTER (WHERE is_dropshipper)::int, count(*) FILTER (WHERE has_traffic)::int,
         sum(revenue_high_usd)::float8, avg(revenue_high_usd)::float8,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY revenue_high_usd)::float8,
         max(revenue_high_usd)::float8, min(revenue_high_usd)::float8,
         sum(monthly_visits)::float8, avg(monthly_visits)::float8,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY monthly_visits)::float8,
         max(monthly_visits)::float8, min(monthly_visits)::float8,
         sum(ad_spend_usd)::float8, avg(service_rating)::float8
  FROM (
    SELECT s.country_code::text AS country_code, s.vertical, s.industry, s.category, s.is_dropshipper,
           s.revenue_high_usd, s.monthly_visits, s.ad_spend_usd, s.service_rating,
           traffic.store_id IS NOT NULL AS has_traffic
    FROM stores s LEFT JOIN (SELECT DISTINCT store_id FROM traffic_monthly) traffic ON traffic.store_id = s.id
    WHERE ${LISTED_STORE}
  ) s
  GROUP BY GROUPING SETS (${GROUPING_SETS.map(groupingSet).join(', ')})`;

/**
 * The groups of the stores running each app, by each single dimension (store_app_rollups): the
 * grouped rows of an app filter alone (GET /v1/stores?app=judgeme&groupBy=country), the same
 * expressions as the live query.
 */
const SINGLE_DIMENSIONS = ROLLUP_DIMENSIONS.map((d) => `(app_id, ${SOURCE[d]})`).join(', ');
const BUILD_APPS = `
  INSERT INTO store_app_rollups (id, app_id, dimensions, country_code, vertical, industry, category, stores,
    revenue_high_mean, revenue_high_median, revenue_high_max, revenue_high_min, visits_mean, visits_median, visits_max, visits_min)
  SELECT row_number() OVER ()::int, app_id, ${dimensionsLabel}, country_code, vertical, industry, category, count(*)::int,
         avg(revenue_high_usd)::float8, percentile_cont(0.5) WITHIN GROUP (ORDER BY revenue_high_usd)::float8,
         max(revenue_high_usd)::float8, min(revenue_high_usd)::float8,
         avg(monthly_visits)::float8, percentile_cont(0.5) WITHIN GROUP (ORDER BY monthly_visits)::float8,
         max(monthly_visits)::float8, min(monthly_visits)::float8
  FROM (
    SELECT sa.app_id, s.country_code::text AS country_code, s.vertical, s.industry, s.category, s.revenue_high_usd, s.monthly_visits
    FROM store_apps sa JOIN stores s ON s.id = sa.store_id
    WHERE ${LISTED_STORE}
  ) s
  GROUP BY GROUPING SETS (${SINGLE_DIMENSIONS})`;

export interface RollupBuild {
  groups: number;
  refreshedAt: Date;
  durationMs: number;
}

/**
 * Recomputes store_rollups, store_app_rollups and the whole catalog's facet counts
 * (store-facet-counts.ts). Runs inside the caller's transaction (the job's, or the seeder's so a
 * load and its rollups commit together): readers keep the previous rollups until it commits.
 * refreshed_at is taken before the statement that reads the catalog, so the figures are at least
 * that fresh.
 */
export async function buildStoreRollups(client: Queryable): Promise<RollupBuild> {
  const started = performance.now();
  // one sort per grouping set over the whole table: in memory rather than in temporary files;
  // JIT compiling this one statement costs more than it saves
  await client.query(`SET LOCAL work_mem = '256MB'`);
  await client.query('SET LOCAL jit = off');
  const { rows } = await client.query<{ at: Date }>(
    'SELECT clock_timestamp()::timestamptz(3) AS at',
  );
  const refreshedAt = rows[0]!.at;
  await client.query('DELETE FROM store_rollups');
  const inserted = await client.query(BUILD);
  await client.query('DELETE FROM store_app_rollups');
  await client.query(BUILD_APPS);
  await buildStoreFacetCounts(client, LISTED_STORE);
  // a few thousand rows replaced wholesale: the planner should know their dimensions at once
  await client.query('ANALYZE store_rollups, store_app_rollups');
  const durationMs = Math.round(performance.now() - started);
  await client.query(
    `INSERT INTO store_rollup_refreshes (id, refreshed_at, duration_ms) VALUES (1, $1, $2)
     ON CONFLICT (id) DO UPDATE SET refreshed_at = EXCLUDED.refreshed_at, duration_ms = EXCLUDED.duration_ms`,
    [refreshedAt, durationMs],
  );
  return { groups: inserted.rowCount ?? 0, refreshedAt, durationMs };
}

/**
 * Rows of store_rollups (alias r) matching `where`, in `orderBy` order; null when the rollups are
 * not fresh (the caller then runs the live query). The freshness check rides in the same statement.
 */
export async function readFreshRollups<R extends object>(
  db: Queryable,
  columns: string,
  where: string,
  orderBy: string,
  values: readonly unknown[] = [],
): Promise<R[] | null> {
  const rows = await queryRows<R & { __fresh: boolean; __id: number | null }>(
    db,
    `SELECT fresh.ok AS "__fresh", r.id AS "__id", ${columns}
       FROM (SELECT ${FRESH_ROLLUPS} AS ok) fresh
       LEFT JOIN store_rollups r ON fresh.ok AND ${where}
      ORDER BY ${orderBy}`,
    values,
  );
  if (!rows[0]?.__fresh) return null;
  return rows
    .filter((row) => row.__id !== null)
    .map(({ __fresh, __id, ...row }) => row as unknown as R);
}
