// The store search behind `stores` (GET /v1/stores without groupBy): filter, sort, one page.
import type { Window } from '../graphql/pagination.ts';
import type { Page } from '../graphql/pagination.ts';
import { cappedCount, countUpTo, likeContains, queryRows, SqlParams, totalFromCapped, type Queryable } from '../platform/database/sql.ts';
import { BROAD_SEARCH_ROWS, countFuzzyMatches, estimateRows } from './row-estimate.ts';
import { LISTED_STORE, vanishedAmong } from './listed-stores.ts';
import { searchText, storeFilterConditions, whereClause, type ResolvedStoreFilter } from './store-filter.ts';
import { storeColumns, storeReadColumns, type StoreReadNeeds, type StoreReadRow, type StoreRecord } from './store.sql.ts';

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

/** How well a store matches q: 1 when q appears whole in the name or the domain. */
const relevance = (q: string) => `GREATEST(similarity(s.name, ${q}), word_similarity(${q}, s.name), word_similarity(${q}, s.domain))`;

/**
 * How many of the most visited stores a broad search walks looking for perfect matches: enough for
 * a common word (1% of stores or more: a page of 21 within about 2,000), little enough that a
 * word that only looks common (a brand that shares most trigrams with one) costs a few ms.
 */
const BROAD_WALK_STORES = 10_000;

export async function searchStores(
  pool: Queryable,
  filter: ResolvedStoreFilter | null | undefined,
  sort: StoreSort,
  window: Window,
): Promise<StoreRecord[]> {
  if (sort === 'relevance' && filter?.q) return searchByRelevance(pool, { ...filter, q: filter.q }, window);
  const params = new SqlParams();
  const where = whereClause(storeFilterConditions(filter, params));
  const orderBy = ORDER_BY[sort === 'relevance' ? 'revenue' : sort];
  return queryRows<StoreRecord>(
    pool,
    `SELECT ${storeColumns('s')} FROM stores s ${where} ORDER BY ${orderBy} LIMIT ${params.add(window.limit)} OFFSET ${params.add(window.offset)}`,
    params.values,
  );
}

/**
 * One page of a filtered list in a sorted order (any sort but relevance) in one statement: the
 * rows with what the selection needs along (the newest traffic month and, co-located, the legacy
 * summary or whether there is one) and, when the total
 * is asked for, the capped count as an uncorrelated subquery PostgreSQL runs once. Past
 * EXACT_COUNT_LIMIT the total is the planner's estimate (kept a minute per filter). Only a page
 * past the last row, which carries no count, costs a second statement.
 */
export async function sortedStorePage(
  pool: Queryable,
  filter: ResolvedStoreFilter | null | undefined,
  sort: Exclude<StoreSort, 'relevance'>,
  window: Window,
  needs: StoreReadNeeds & { total: boolean },
  /** the co-located legacy table (LegacyStore.colocatedTable), joined when the cards need it */
  legacyTable?: string,
): Promise<Page<StoreReadRow>> {
  const params = new SqlParams();
  const filters = storeFilterConditions(filter, params, false);
  const matching = `stores s ${whereClause([LISTED_STORE, ...filters])}`;
  // the count runs over every store the filter matches, less the vanished ones counted apart: it keeps its index-only plan
  const all = `stores s ${whereClause(filters)}`;
  const vanished = vanishedAmong(filters);
  const filterValues = [...params.values];
  const countColumn = needs.total ? `, ${cappedCount(all)} - (SELECT count(*)::int FROM ${vanished}) AS "cappedTotal"` : '';
  const rows = await queryRows<StoreReadRow & { cappedTotal?: number }>(
    pool,
    `SELECT ${storeReadColumns(needs, legacyTable)}${countColumn} FROM ${matching}
     ORDER BY ${ORDER_BY[sort]} LIMIT ${params.add(window.limit)} OFFSET ${params.add(window.offset)}`,
    params.values,
  );
  const page = rows.map(({ cappedTotal: _, ...row }) => row);
  if (!needs.total) return { rows: page, total: 0 };
  const [first] = rows;
  if (first) return { rows: page, ...(await totalFromCapped(pool, first.cappedTotal ?? 0, all, filterValues)) };
  if (window.offset === 0) return { rows: page, total: 0 };
  return { rows: page, ...(await countUpTo(pool, all, filterValues, vanished)) };
}

/**
 * Relevance order: the store whose domain is q first, then relevance, then visits. Ranking every
 * match costs a recheck per match: cheap for a brand, not for a common word ("boutique": tens of
 * thousands, all equally relevant). Whenever the page fills with perfect matches it is the same as
 * the page of perfect matches alone (nothing ranks above 1), which is found cheaply: for a search
 * PostgreSQL estimates as broad, by walking the most visited stores; otherwise among the stores
 * containing q. Only when neither fills the page is every match ranked.
 */
async function searchByRelevance(pool: Queryable, filter: ResolvedStoreFilter & { q: string }, { offset, limit }: Window) {
  const estimateParams = new SqlParams();
  const matching = `stores s ${whereClause(storeFilterConditions(filter, estimateParams))}`;
  const broad = (await estimateRows(pool, matching, estimateParams.values)) > BROAD_SEARCH_ROWS;
  const perfect =
    (broad ? await mostVisitedPerfectMatches(pool, filter, offset + limit) : null) ??
    (await perfectSubstringMatches(pool, filter, offset + limit));
  if (perfect) return perfect.slice(offset, offset + limit);
  const params = new SqlParams();
  const where = whereClause(storeFilterConditions(filter, params));
  const q = params.add(searchText(filter.q));
  return queryRows<StoreRecord>(
    pool,
    `SELECT ${storeColumns('s')} FROM stores s ${where}
     ORDER BY (s.domain = ${q}) DESC, ${relevance(q)} DESC, s.monthly_visits DESC, s.id
     LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`,
    params.values,
  );
}

/**
 * The first `count` stores of the relevance order when they are all perfect matches, ranked among
 * the stores whose name or domain contains q: a perfect match (q whole in the name or the domain)
 * always does, and for a brand these are a few hundred rows, where the word-similarity match also
 * takes in every store sharing most of its trigrams ("waveoutfitters" brings in 20,000
 * "... Outfitters"). Null when the page does not fill with perfect matches.
 */
async function perfectSubstringMatches(pool: Queryable, filter: ResolvedStoreFilter & { q: string }, count: number) {
  const params = new SqlParams();
  const conditions = storeFilterConditions(filter, params);
  const q = params.add(searchText(filter.q));
  const contains = params.add(likeContains(searchText(filter.q)));
  const rows = await queryRows<StoreRecord & { relevance: number }>(
    pool,
    `SELECT ${storeColumns('s')}, ${relevance(q)} AS relevance FROM stores s
     WHERE ${[...conditions, `(s.name ILIKE ${contains} OR s.domain ILIKE ${contains})`].join(' AND ')}
     ORDER BY (s.domain = ${q}) DESC, relevance DESC, s.monthly_visits DESC, s.id
     LIMIT ${params.add(count)}`,
    params.values,
  );
  if (rows.length < count || rows.some((row) => row.relevance < 1)) return null;
  return rows.map(({ relevance: _, ...store }) => store);
}

/**
 * The first `count` stores of the relevance order when they are all perfect matches: the store
 * whose domain is q, then perfect matches among the BROAD_WALK_STORES most visited stores, by
 * visits. Null when fewer turn up there (the full ranking then answers).
 */
async function mostVisitedPerfectMatches(pool: Queryable, filter: ResolvedStoreFilter & { q: string }, count: number) {
  const params = new SqlParams();
  const conditions = storeFilterConditions(filter, params);
  const q = params.add(searchText(filter.q));
  const rows = await queryRows<StoreRecord & { exactDomain: boolean }>(
    pool,
    `SELECT * FROM (
       SELECT ${storeColumns('s')}, true AS "exactDomain" FROM stores s WHERE ${[...conditions, `s.domain = ${q}`].join(' AND ')}
       UNION ALL
       (SELECT ${storeColumns('s')}, false FROM (SELECT * FROM stores ORDER BY monthly_visits DESC LIMIT ${BROAD_WALK_STORES}) s
        WHERE ${[...conditions, `${relevance(q)} >= 1`, `s.domain <> ${q}`].join(' AND ')}
        ORDER BY s.monthly_visits DESC, s.id LIMIT ${params.add(count)})
     ) page ORDER BY "exactDomain" DESC, "monthlyVisits" DESC, id`,
    params.values,
  );
  if (rows.length < count) return null;
  return rows.map(({ exactDomain: _, ...store }) => store);
}

export function countStores(pool: Queryable, filter: ResolvedStoreFilter | null | undefined) {
  const params = new SqlParams();
  // vanished stores are counted apart and taken off, so the count keeps its index-only plan
  const conditions = storeFilterConditions(filter, params, false);
  return (filter?.q ? countFuzzyMatches : countUpTo)(pool, `stores s ${whereClause(conditions)}`, params.values, vanishedAmong(conditions));
}
