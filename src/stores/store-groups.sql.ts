// Grouped rows (GET /v1/stores?groupBy=...): the filtered stores rolled up by one or two
// dimensions in one GROUP BY statement. The page and the number of groups come back together, so
// an offset past the last group still reports the right total. Without a filter the groups come
// from the pre-computed rollups (src/stores/rollups/) while they are fresh, and so do one app's groups by
// one dimension: the same figures without a scan of the whole catalog.
import type { Window } from '../graphql/pagination.ts';
import { orderSql, type OrderDirection } from '../graphql/order.ts';
import { queryRows, SqlParams, type Queryable } from '../platform/database/sql.ts';
import { FRESH_ROLLUPS, ROLLUP_COLUMN, rollupDimensions } from './rollups/store-rollups.ts';
import { storeFilterConditions, whereClause, type ResolvedStoreFilter } from './store-filter.ts';
import { LISTED_STORE } from './listed-stores.ts';

export const STORE_GROUPINGS = ['country', 'vertical', 'industry', 'category'] as const;
export type StoreGrouping = (typeof STORE_GROUPINGS)[number];
export const GROUP_METRICS = ['mean', 'median', 'max', 'min'] as const;
export type GroupMetric = (typeof GROUP_METRICS)[number];
export const GROUP_SORTS = ['stores', 'revenue', 'visits'] as const;
export type GroupSort = (typeof GROUP_SORTS)[number];

/** Stores without a value for the grouping dimension are rolled up under this key. */
export const UNKNOWN_GROUP = 'unknown';

const COLUMN: Record<StoreGrouping, string> = {
  country: 's.country_code::text',
  vertical: 's.vertical',
  industry: 's.industry',
  category: 's.category',
};

const AGGREGATE: Record<GroupMetric, (column: string) => string> = {
  mean: (c) => `avg(${c})`,
  median: (c) => `percentile_cont(0.5) WITHIN GROUP (ORDER BY ${c})`,
  max: (c) => `max(${c})`,
  min: (c) => `min(${c})`,
};

const ORDER_BY: Record<GroupSort, string> = {
  stores: 'stores DESC, key',
  revenue: '"monthlyRevenueUsd" DESC, key',
  visits: '"monthlyVisits" DESC, key',
};

export interface StoreGroupRow {
  key: string;
  parent: string | null;
  leaf: string | null;
  stores: number;
  monthlyRevenueUsd: number;
  monthlyVisits: number;
}

export interface GroupQuery {
  filter?: ResolvedStoreFilter | null;
  groupBy: StoreGrouping;
  groupBy2?: StoreGrouping | null;
  metric: GroupMetric;
  sort: GroupSort;
  direction?: OrderDirection;
}

/** The page of groups and their number, out of `source` (a query yielding key, parent, leaf, stores and the two metrics). */
const groupPage = (
  source: string,
  { sort, direction = 'desc' }: Pick<GroupQuery, 'sort' | 'direction'>,
  limit: string,
  offset: string,
) =>
  `WITH groups AS (${source})
     SELECT (SELECT count(*)::int FROM groups) AS total,
            (SELECT json_agg(page ORDER BY ${orderSql(ORDER_BY[sort], direction)}) FROM (
               SELECT * FROM groups ORDER BY ${orderSql(ORDER_BY[sort], direction)}
               LIMIT ${limit} OFFSET ${offset}
             ) page) AS rows`;

const groupKey = (parent: string, leaf: string | null, unknown: string) =>
  leaf
    ? `coalesce(${parent}, ${unknown}) || ' / ' || coalesce(${leaf}, ${unknown})`
    : `coalesce(${parent}, ${unknown})`;

/** The groups of the whole catalog from store_rollups; null when the rollups are not fresh. */
async function rolledUpGroups(pool: Queryable, query: GroupQuery, { offset, limit }: Window) {
  const params = new SqlParams();
  const parent = ROLLUP_COLUMN[query.groupBy];
  const leaf = query.groupBy2 ? ROLLUP_COLUMN[query.groupBy2] : null;
  const unknown = params.add(UNKNOWN_GROUP);
  const dimensions = params.add(
    rollupDimensions(query.groupBy2 ? [query.groupBy, query.groupBy2] : [query.groupBy]),
  );
  // the rollup columns are named after the metrics: revenue_high_median, visits_max, ...
  const source = `SELECT ${groupKey(parent, leaf, unknown)} AS key, ${parent} AS parent, ${leaf ?? 'NULL::text'} AS leaf, r.stores,
              r.revenue_high_${query.metric} AS "monthlyRevenueUsd", r.visits_${query.metric} AS "monthlyVisits"
       FROM store_rollups r WHERE r.dimensions = ${dimensions}`;
  const [result] = await queryRows<{ fresh: boolean; total: number; rows: StoreGroupRow[] | null }>(
    pool,
    `SELECT ${FRESH_ROLLUPS} AS fresh, paged.* FROM (${groupPage(source, query, params.add(limit), params.add(offset))}) paged`,
    params.values,
  );
  return result?.fresh ? { rows: result.rows ?? [], total: result.total } : null;
}

/** The groups of the stores running one app, by one dimension, from store_app_rollups; null when not fresh. */
async function rolledUpAppGroups(
  pool: Queryable,
  appId: number,
  query: GroupQuery,
  { offset, limit }: Window,
) {
  const params = new SqlParams();
  const parent = ROLLUP_COLUMN[query.groupBy];
  const unknown = params.add(UNKNOWN_GROUP);
  const source = `SELECT ${groupKey(parent, null, unknown)} AS key, ${parent} AS parent, NULL::text AS leaf, r.stores,
              r.revenue_high_${query.metric} AS "monthlyRevenueUsd", r.visits_${query.metric} AS "monthlyVisits"
       FROM store_app_rollups r WHERE r.app_id = ${params.add(appId)} AND r.dimensions = ${params.add(rollupDimensions([query.groupBy]))}`;
  const [result] = await queryRows<{ fresh: boolean; total: number; rows: StoreGroupRow[] | null }>(
    pool,
    `SELECT ${FRESH_ROLLUPS} AS fresh, paged.* FROM (${groupPage(source, query, params.add(limit), params.add(offset))}) paged`,
    params.values,
  );
  return result?.fresh ? { rows: result.rows ?? [], total: result.total } : null;
}

/** The app of a filter that is one app (app=slug) and nothing else. */
function onlyApp(filter: GroupQuery['filter'], filters: readonly string[]): number | null {
  const ids = filter?.appIds;
  return filters.length === 1 &&
    ids?.all.length === 1 &&
    !ids.any.length &&
    !ids.none.length &&
    !ids.impossible
    ? ids.all[0]!
    : null;
}

export async function storeGroups(
  pool: Queryable,
  query: GroupQuery,
  window: Window,
): Promise<{ rows: StoreGroupRow[]; total: number }> {
  const params = new SqlParams();
  const filters = storeFilterConditions(query.filter, params, false);
  if (filters.length === 0) {
    const rolledUp = await rolledUpGroups(pool, query, window);
    if (rolledUp) return rolledUp;
  }
  const appId = onlyApp(query.filter, filters);
  if (appId !== null && !query.groupBy2) {
    const rolledUp = await rolledUpAppGroups(pool, appId, query, window);
    if (rolledUp) return rolledUp;
  }
  const where = whereClause([LISTED_STORE, ...filters]);
  const parent = COLUMN[query.groupBy];
  const leaf = query.groupBy2 ? COLUMN[query.groupBy2] : null;
  const unknown = params.add(UNKNOWN_GROUP);
  const aggregate = AGGREGATE[query.metric];
  const source = `SELECT ${groupKey(parent, leaf, unknown)} AS key, ${parent} AS parent, ${leaf ?? 'NULL::text'} AS leaf, count(*)::int AS stores,
              ${aggregate('s.revenue_high_usd')}::float8 AS "monthlyRevenueUsd",
              ${aggregate('s.monthly_visits')}::float8 AS "monthlyVisits"
       FROM stores s ${where}
       GROUP BY ${parent}${leaf ? `, ${leaf}` : ''}`;
  const [result] = await queryRows<{ total: number; rows: StoreGroupRow[] | null }>(
    pool,
    groupPage(source, query, params.add(window.limit), params.add(window.offset)),
    params.values,
  );
  return { rows: result?.rows ?? [], total: result?.total ?? 0 };
}
