// Grouped rows (GET /v1/stores?groupBy=...): the filtered stores rolled up by one or two
// dimensions in one GROUP BY statement. The page and the number of groups come back together, so
// an offset past the last group still reports the right total.
import type { Window } from '../graphql/pagination.ts';
import { queryRows, SqlParams, type Queryable } from '../graphql/sql.ts';
import { storeFilterConditions, whereClause, type StoreFilterValues } from './store-filter.ts';

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
  filter?: StoreFilterValues | null;
  groupBy: StoreGrouping;
  groupBy2?: StoreGrouping | null;
  metric: GroupMetric;
  sort: GroupSort;
}

export async function storeGroups(
  pool: Queryable,
  query: GroupQuery,
  { offset, limit }: Window,
): Promise<{ rows: StoreGroupRow[]; total: number }> {
  const params = new SqlParams();
  const where = whereClause(storeFilterConditions(query.filter, params));
  const parent = COLUMN[query.groupBy];
  const leaf = query.groupBy2 ? COLUMN[query.groupBy2] : null;
  const unknown = params.add(UNKNOWN_GROUP);
  const key = leaf
    ? `coalesce(${parent}, ${unknown}) || ' / ' || coalesce(${leaf}, ${unknown})`
    : `coalesce(${parent}, ${unknown})`;
  const aggregate = AGGREGATE[query.metric];
  const [result] = await queryRows<{ total: number; rows: StoreGroupRow[] | null }>(
    pool,
    `WITH groups AS (
       SELECT ${key} AS key, ${parent} AS parent, ${leaf ?? 'NULL::text'} AS leaf, count(*)::int AS stores,
              ${aggregate('s.revenue_high_usd')}::float8 AS "monthlyRevenueUsd",
              ${aggregate('s.monthly_visits')}::float8 AS "monthlyVisits"
       FROM stores s ${where}
       GROUP BY ${parent}${leaf ? `, ${leaf}` : ''}
     )
     SELECT (SELECT count(*)::int FROM groups) AS total,
            (SELECT json_agg(page ORDER BY ${ORDER_BY[query.sort]}) FROM (
               SELECT * FROM groups ORDER BY ${ORDER_BY[query.sort]}
               LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}
             ) page) AS rows`,
    params.values,
  );
  return { rows: result?.rows ?? [], total: result?.total ?? 0 };
}
