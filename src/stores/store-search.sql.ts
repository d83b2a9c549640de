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
import { escapeLiteral } from 'pg';
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
 * Filters whose conditions are equalities (a name, a country, a flag): a page of such a filter
 * starting within its first NAMED_OFFSETS rows is a named statement with its page size, its offset
 * and its values written in (WrittenValues), which PostgreSQL plans once per connection, for those
 * values, and runs on that plan from then on. With the values as parameters it takes a generic plan
 * only once that is estimated no dearer than the plans made for the values so far: a connection
 * asked mostly for one large vertical planned it at every execution (0.3 to 0.5 ms of planning
 * against 0.4 ms of execution at 1M stores), and a mix could settle on a plan that suits some values
 * only. A LIMIT or OFFSET parameter, guessed at a tenth of the rows, would keep a generic plan from
 * ever winning: page 2 of a vertical was planned at every request (0.86 ms of planning against 0.4
 * ms of execution). Ranges, app lists, text search and deeper pages are planned per request.
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
/**
 * and at most this many of them with their filter's values written in (below): each connection
 * keeps each one's plan, about 100 kB in PostgreSQL's memory, and callers choose the values
 */
const MAX_VALUE_PAGES = 64;
/** the pages people page through (2 to 5 of 20 rows): deeper ones, exports' included, stay unnamed */
const NAMED_OFFSETS = 100;
/** and at most this many later pages: each offset is a statement of its own */
const MAX_LATER_PAGES = 32;
const preparedPages = new Map<string, string>();
let valuePages = 0;
let laterPages = 0;

const onlyEqualities = (filter: ResolvedStoreFilter | null | undefined): boolean =>
  Object.entries(filter ?? {}).every(
    ([field, value]) =>
      value == null ||
      value === '' ||
      (Array.isArray(value) && value.length === 0) ||
      field === 'textMatch' ||
      EQUALITY_FILTERS.has(field),
  );

/** A name, country or flag as a filter gives it, plain enough to be written into a statement's text. */
const PLAIN_VALUE = /^[\p{L}\p{N} &'().,/+-]{1,100}$/u;

/**
 * The values of a named page, written into its text as literals (quoted by pg's escapeLiteral):
 * a statement without parameters is planned once, for the values it holds. A value of another shape
 * stays a parameter.
 */
class WrittenValues extends SqlParams {
  /** how many values the text holds */
  written = 0;

  override add(value: unknown): string {
    if (typeof value === 'boolean' || (typeof value === 'string' && PLAIN_VALUE.test(value))) {
      this.written += 1;
      return typeof value === 'boolean' ? String(value) : escapeLiteral(value);
    }
    return super.add(value);
  }
}

const writesValues = (params: SqlParams) => params instanceof WrittenValues && params.written > 0;

/** Whether a page's statement is named: a page within the first rows of a filter of equalities. */
const isNamedPage = (filter: ResolvedStoreFilter | null | undefined, window: Window): boolean =>
  Number.isSafeInteger(window.offset) &&
  window.offset < NAMED_OFFSETS &&
  Number.isSafeInteger(window.limit) &&
  onlyEqualities(filter);

/**
 * The statement of a page: `columns` of the stores `matching` (aliased s), ordered and cut to
 * `window`; a named page with LIMIT and OFFSET written in, any other with them as parameters. A
 * later page picks its rows first and reads the columns over them alone: PostgreSQL computes a
 * select list (each card's traffic, apps and legacy subqueries) for every row an OFFSET skips as well.
 */
function pageText(
  columns: string,
  matching: string,
  order: string,
  window: Window,
  named: boolean,
  params: SqlParams,
): string {
  const cut = named
    ? `LIMIT ${window.limit}${window.offset !== 0 ? ` OFFSET ${window.offset}` : ''}`
    : `LIMIT ${params.add(window.limit)} OFFSET ${params.add(window.offset)}`;
  if (window.offset !== 0)
    return `SELECT ${columns} FROM (
        SELECT s.* FROM ${matching} ORDER BY ${order} ${cut}
      ) s ORDER BY ${order}`;
  return `SELECT ${columns} FROM ${matching} ORDER BY ${order} ${cut}`;
}

/** The name of a named page's text, undefined once the names (those with values written in, or of later pages) run out. */
function pageName(text: string, valuesWritten: boolean, later: boolean): string | undefined {
  const known = preparedPages.get(text);
  if (known !== undefined) return known;
  if (preparedPages.size >= MAX_PREPARED_PAGES) return undefined;
  if (later ? laterPages >= MAX_LATER_PAGES : valuesWritten && valuePages >= MAX_VALUE_PAGES)
    return undefined;
  const name = `store-page:${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  preparedPages.set(text, name);
  if (later) laterPages += 1;
  else if (valuesWritten) valuePages += 1;
  return name;
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
  const named = isNamedPage(filter, window);
  const later = window.offset !== 0;
  const statementWith = (asNamed: boolean, params: SqlParams) =>
    pageStatement(filter, sort, window, needs, legacyTable, direction, asNamed, params);
  let statement = statementWith(named, named ? new WrittenValues() : new SqlParams());
  let name = named ? pageName(statement.text, writesValues(statement.params), later) : undefined;
  if (named && name === undefined && later) {
    // no name left for later pages: planned per request, as a deeper page
    statement = statementWith(false, new SqlParams());
  } else if (named && name === undefined && writesValues(statement.params)) {
    // no name left for its values: the filter's shape, its values as parameters
    statement = statementWith(true, new SqlParams());
    name = pageName(statement.text, false, false);
  }
  const { text, params, counted, all, vanished, filterValues } = statement;
  if (counted) {
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
 * sortedStorePage's statement: its text and parameters, whether it counts its total from
 * store_filter_counts, and otherwise the stores it counts (`all`, with `filterValues`, less the
 * `vanished`) and how. `params` takes the filter's values: WrittenValues writes a named page's in.
 */
function pageStatement(
  filter: ResolvedStoreFilter | null | undefined,
  sort: Exclude<StoreSort, 'relevance'>,
  window: Window,
  needs: StoreReadNeeds & { total: boolean },
  legacyTable: string | undefined,
  direction: OrderDirection,
  named: boolean,
  params: SqlParams,
) {
  const filters = storeFilterConditions(filter, params, false);
  const matching = `stores s ${whereClause([LISTED_STORE, ...filters])}`;
  const order = orderSql(ORDER_BY[sort], direction);
  // asked once on scratch parameters: a filter it declines may have added some
  const counted =
    needs.total && filterCountKey(filter, new SqlParams()) ? filterCountKey(filter, params) : null;
  // the count runs over every store the filter matches, less the vanished ones counted apart: it keeps its index-only plan
  const all =
    (filters.length === 1 && periodsCountSource(filters[0]!)) || `stores s ${whereClause(filters)}`;
  const vanished = vanishedAmong(filters);
  const filterValues = [...params.values];
  const total = counted
    ? `, ${filterCountSql(counted)} AS "countedTotal"`
    : needs.total
      ? `, ${cappedCount(all)} - (SELECT count(*)::int FROM ${vanished}) AS "cappedTotal"`
      : '';
  const text = pageText(
    `${storeReadColumns(needs, legacyTable)}${total}`,
    matching,
    order,
    window,
    named,
    params,
  );
  return { text, params, counted, all, vanished, filterValues };
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
