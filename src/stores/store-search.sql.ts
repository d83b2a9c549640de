// The store search behind `stores` (GET /v1/stores without groupBy): filter, sort, one page.
import type { Window } from '../graphql/pagination.ts';
import type { Page } from '../graphql/pagination.ts';
import { orderSql, type OrderDirection } from '../graphql/order.ts';
import {
  cappedCount,
  countUpTo,
  estimatedRows,
  queryRows,
  SqlParams,
  totalFromCapped,
  type Queryable,
} from '../platform/database/sql.ts';

import { createHash } from 'node:crypto';
import { periodsCountSource } from './app-change-filter.ts';
import { LISTED_STORE, vanishedAmong } from './listed-stores.ts';
import { filterCountKey, filterCountSql } from './rollups/store-filter-counts.ts';
import { storeFilterConditions, whereClause, type ResolvedStoreFilter } from './store-filter.ts';
import { isNarrow, matchedTermDocuments, relevancePage } from '../search/relevance-page.ts';
import { STORE_SEARCH_TABLE, storeExactMatches, type StoreTextMatch } from './store-text-search.ts';
import {
  storeColumns,
  storeReadColumns,
  type StoreReadNeeds,
  type StoreReadRow,
  type StoreRecord,
} from './store.sql.ts';

export const STORE_SORTS = ['revenue', 'visits', 'rating', 'newest', 'relevance'] as const;
export type StoreSort = (typeof STORE_SORTS)[number];

/** ORDER BY of each sort; ties always end on the id so pages never overlap. */
const ORDER_BY: Record<Exclude<StoreSort, 'relevance'>, string> = {
  revenue: 's.revenue_high_usd DESC, s.monthly_visits DESC, s.id',
  visits: 's.monthly_visits DESC, s.id',
  rating: 's.service_rating DESC, s.monthly_visits DESC, s.id',
  newest: 's.first_seen_at DESC, s.id DESC',
};

/**
 * Filters whose conditions are equalities (a name, a country, a flag): a first page of such a filter
 * is prepared once per connection with its page size written in (PostgreSQL guesses a tenth of the
 * rows for a LIMIT parameter, which keeps a generic plan from ever winning). PostgreSQL takes the
 * generic plan once it is estimated no dearer than the plans made so far: after five executions for
 * a small vertical; a large one's own plan (walking the sort's index) is estimated cheaper, so it is
 * planned at each execution all the same. Ranges, app lists, text search and later pages are
 * planned per request.
 */
const EQUALITY_FILTERS: ReadonlySet<string> = new Set([
  'vertical',
  'industry',
  'category',
  'countryCode',
  'isDropshipper',
  'theme',
]);
/** At most this many page statements are named (each connection keeps the ones it ran). */
const MAX_PREPARED_PAGES = 256;
const preparedPages = new Map<string, string>();

const onlyEqualities = (filter: ResolvedStoreFilter | null | undefined): boolean =>
  Object.entries(filter ?? {}).every(
    ([field, value]) =>
      value == null ||
      value === '' ||
      (Array.isArray(value) && value.length === 0) ||
      field === 'textMatch' ||
      EQUALITY_FILTERS.has(field),
  );

/**
 * The statement of a page: `columns` of the stores `matching` (aliased s), ordered and cut to
 * `window`; named (prepared) when it is the first page of a filter of equalities, with LIMIT written
 * in, else LIMIT and OFFSET as parameters. A later page picks its rows first and reads the columns
 * over them alone: PostgreSQL computes a select list (each card's traffic, apps and legacy
 * subqueries) for every row an OFFSET skips as well.
 */
function pageStatement(
  columns: string,
  matching: string,
  order: string,
  window: Window,
  filter: ResolvedStoreFilter | null | undefined,
  params: SqlParams,
): { text: string; name?: string } {
  if (window.offset !== 0)
    return {
      text: `SELECT ${columns} FROM (
        SELECT s.* FROM ${matching} ORDER BY ${order} LIMIT ${params.add(window.limit)} OFFSET ${params.add(window.offset)}
      ) s ORDER BY ${order}`,
    };
  if (!Number.isSafeInteger(window.limit) || !onlyEqualities(filter))
    return {
      text: `SELECT ${columns} FROM ${matching} ORDER BY ${order} LIMIT ${params.add(window.limit)} OFFSET ${params.add(window.offset)}`,
    };
  const text = `SELECT ${columns} FROM ${matching} ORDER BY ${order} LIMIT ${window.limit}`;
  let name = preparedPages.get(text);
  if (name === undefined && preparedPages.size < MAX_PREPARED_PAGES) {
    name = `store-page:${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    preparedPages.set(text, name);
  }
  return { text, name };
}

/** relevance needs a q; without one it falls back to revenue, as does an omitted sort. */
export function effectiveSort(
  sort: StoreSort | null | undefined,
  q: string | null | undefined,
): StoreSort {
  if (sort === 'relevance' || sort == null) return q ? 'relevance' : 'revenue';
  return sort;
}

/**
 * One page of a filtered list in a sorted order (any sort but relevance) in one statement: the
 * rows with what the selection needs along (the newest traffic month and, co-located, the legacy
 * summary or whether there is one) and, when the total
 * is asked for, the total as an uncorrelated subquery PostgreSQL runs once: the exact count of
 * store_filter_counts when the filter is one it holds (rollups/store-filter-counts.ts), otherwise the
 * capped count, and past EXACT_COUNT_LIMIT the planner's estimate (kept a minute per filter). Only a
 * page past the last row, which carries no count, costs a second statement.
 */
export async function sortedStorePage(
  pool: Queryable,
  filter: ResolvedStoreFilter | null | undefined,
  sort: Exclude<StoreSort, 'relevance'>,
  window: Window,
  needs: StoreReadNeeds & { total: boolean },
  /** the co-located legacy table (LegacyStore.colocatedTable), joined when the cards need it */
  legacyTable?: string,
  direction: OrderDirection = 'desc',
): Promise<Page<StoreReadRow>> {
  const params = new SqlParams();
  const filters = storeFilterConditions(filter, params, false);
  const matching = `stores s ${whereClause([LISTED_STORE, ...filters])}`;
  // asked once on scratch parameters: a filter it declines may have added some
  const counted =
    needs.total && filterCountKey(filter, new SqlParams()) ? filterCountKey(filter, params) : null;
  if (counted) {
    const { text, name } = pageStatement(
      `${storeReadColumns(needs, legacyTable)}, ${filterCountSql(counted)} AS "countedTotal"`,
      matching,
      orderSql(ORDER_BY[sort], direction),
      window,
      filter,
      params,
    );
    const rows = await queryRows<StoreReadRow & { countedTotal: number }>(
      pool,
      text,
      params.values,
      name,
    );
    let total = rows[0]?.countedTotal;
    if (total === undefined) {
      // a page past the last row carries no count
      const alone = new SqlParams();
      const key = filterCountKey(filter, alone)!;
      const [counts] = await queryRows<{ n: number }>(
        pool,
        `SELECT ${filterCountSql(key)} AS n`,
        alone.values,
      );
      total = counts?.n ?? 0;
    }
    return { rows: rows.map(({ countedTotal: _, ...row }) => row), total, exact: true };
  }
  // the count runs over every store the filter matches, less the vanished ones counted apart: it keeps its index-only plan
  const all =
    (filters.length === 1 && periodsCountSource(filters[0]!)) || `stores s ${whereClause(filters)}`;
  const vanished = vanishedAmong(filters);
  const filterValues = [...params.values];
  const countColumn = needs.total
    ? `, ${cappedCount(all)} - (SELECT count(*)::int FROM ${vanished}) AS "cappedTotal"`
    : '';
  const { text, name } = pageStatement(
    `${storeReadColumns(needs, legacyTable)}${countColumn}`,
    matching,
    orderSql(ORDER_BY[sort], direction),
    window,
    filter,
    params,
  );
  const rows = await queryRows<StoreReadRow & { cappedTotal?: number }>(
    pool,
    text,
    params.values,
    name,
  );
  const page = rows.map(({ cappedTotal: _, ...row }) => row);
  if (!needs.total) return { rows: page, total: 0 };
  const [first] = rows;
  if (first)
    return {
      rows: page,
      ...(await totalFromCapped(pool, first.cappedTotal ?? 0, all, filterValues)),
    };
  if (window.offset === 0) return { rows: page, total: 0 };
  return { rows: page, ...(await countUpTo(pool, all, filterValues, vanished)) };
}

/**
 * One page of a search with q and its total, in one statement after the vocabulary's (the words
 * matched in resolveStoreFilter). Relevance order: relevancePage. Another order: q is a filter; a
 * narrow search reads every match (and counts them alongside), a broad one walks the sort's index.
 * The total of a broad search is not counted: without other filters it is the vocabulary's count
 * of stores holding the matched terms (an upper bound), with filters PostgreSQL's estimate.
 */
export async function textSearchPage(
  pool: Queryable,
  filter: ResolvedStoreFilter & { textMatch: StoreTextMatch },
  sort: StoreSort,
  window: Window,
  direction: OrderDirection = 'desc',
): Promise<Page<StoreRecord>> {
  const match = filter.textMatch;
  const narrow = isNarrow(match);
  let text: string;
  let values: unknown[];
  if (sort === 'relevance') {
    const params = new SqlParams();
    ({ text } = relevancePage(STORE_SEARCH_TABLE, match, {
      params,
      filters: storeFilterConditions({ ...filter, q: null }, params, false),
      exact: storeExactMatches(match, params),
      columns: storeColumns('s'),
      from: 'stores s',
      depth: window.offset + window.limit,
      ...window,
    }));
    values = params.values;
  } else {
    const params = new SqlParams();
    const where = whereClause(storeFilterConditions(filter, params));
    text = `SELECT ${storeColumns('s')}${narrow ? ', count(*) OVER ()::int AS "matchTotal"' : ''} FROM stores s ${where}
            ORDER BY ${orderSql(ORDER_BY[sort], direction)} LIMIT ${params.add(window.limit)} OFFSET ${params.add(window.offset)}`;
    values = params.values;
  }
  const rows = await queryRows<StoreRecord & { matchTotal?: number }>(pool, text, values);
  const page = rows.map(({ matchTotal: _, ...store }) => store);
  if (narrow) {
    if (rows[0] || window.offset === 0) return { rows: page, total: rows[0]?.matchTotal ?? 0 };
    return { rows: page, ...(await countMatches(pool, filter)) };
  }
  if (storeFilterConditions({ ...filter, q: null }, new SqlParams(), false).length === 0) {
    return {
      rows: page,
      total: Math.round(Math.min(matchedTermDocuments(match), match.documents)),
      exact: false,
    };
  }
  const params = new SqlParams();
  return {
    rows: page,
    total: await estimatedRows(
      pool,
      `stores s ${whereClause(storeFilterConditions(filter, params))}`,
      params.values,
    ),
    exact: false,
  };
}

/** The exact count of a narrow search's matches (a page past the last one carries none). */
function countMatches(pool: Queryable, filter: ResolvedStoreFilter) {
  const params = new SqlParams();
  return countUpTo(
    pool,
    `stores s ${whereClause(storeFilterConditions(filter, params))}`,
    params.values,
  );
}
