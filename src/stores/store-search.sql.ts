// The store search behind `stores` (GET /v1/stores without groupBy): filter, sort, one page.
import type { Window } from '../graphql/pagination.ts';
import { countUpTo, queryRows, SqlParams, type Queryable } from '../graphql/sql.ts';
import { searchText, storeFilterConditions, whereClause, type StoreFilterValues } from './store-filter.ts';
import { storeColumns, type StoreRecord } from './store.sql.ts';

export const STORE_SORTS = ['revenue', 'visits', 'rating', 'newest', 'relevance'] as const;
export type StoreSort = (typeof STORE_SORTS)[number];

/** ORDER BY of each sort; ties always end on the id so pages never overlap. */
const ORDER_BY: Record<Exclude<StoreSort, 'relevance'>, string> = {
  revenue: 's.revenue_high_usd DESC, s.monthly_visits DESC, s.id',
  visits: 's.monthly_visits DESC, s.id',
  rating: 's.service_rating DESC, s.monthly_visits DESC, s.id',
  newest: 's.first_seen_at DESC, s.id DESC',
};

/** relevance needs a q; without one it falls back to revenue, as does an omitted sort. */
export function effectiveSort(sort: StoreSort | null | undefined, q: string | null | undefined): StoreSort {
  if (sort === 'relevance' || sort == null) return q ? 'relevance' : 'revenue';
  return sort;
}

export async function searchStores(
  pool: Queryable,
  filter: StoreFilterValues | null | undefined,
  sort: StoreSort,
  { offset, limit }: Window,
): Promise<StoreRecord[]> {
  const params = new SqlParams();
  const where = whereClause(storeFilterConditions(filter, params));
  let orderBy: string;
  if (sort === 'relevance' && filter?.q) {
    const q = params.add(searchText(filter.q));
    orderBy = `GREATEST(similarity(s.name, ${q}), word_similarity(${q}, s.name), word_similarity(${q}, s.domain)) DESC, s.monthly_visits DESC, s.id`;
  } else {
    orderBy = ORDER_BY[sort === 'relevance' ? 'revenue' : sort];
  }
  return queryRows<StoreRecord>(
    pool,
    `SELECT ${storeColumns('s')} FROM stores s ${where} ORDER BY ${orderBy} LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`,
    params.values,
  );
}

export function countStores(pool: Queryable, filter: StoreFilterValues | null | undefined) {
  const params = new SqlParams();
  const where = whereClause(storeFilterConditions(filter, params));
  return countUpTo(pool, `stores s ${where}`, params.values);
}
