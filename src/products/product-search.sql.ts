// The product search behind `products` (GET /v1/products).
import { orderSql, type OrderDirection } from '../graphql/order.ts';
import type { Page, Window } from '../graphql/pagination.ts';
import {
  countUpTo,
  EXACT_COUNT_LIMIT,
  estimatedRows,
  totalFromCapped,
  queryRows,
  SqlParams,
  type Queryable,
} from '../platform/database/sql.ts';
import {
  holdsMatchedTerms,
  matchedTermDocuments,
  relevancePage,
  type SearchTable,
  type TextMatch,
} from '../search/relevance-page.ts';
import { searchWords } from '../search/search-words.ts';
import { matchWords, type Vocabulary } from '../search/vocabulary.ts';

import { PRODUCT_COLUMNS, PRODUCTS_WITH_STORE, type ProductRecord } from './product.sql.ts';

export interface ProductFilterValues {
  q?: string | null;
  isBestSeller?: boolean | null;
  priceMin?: number | null;
  priceMax?: number | null;
  /** canonical domain */
  domain?: string | null;
}

export const PRODUCT_VOCABULARY: Vocabulary = {
  table: 'product_search_vocabulary',
  countColumn: 'products',
  documentsTable: 'products',
};

/** Products in the relevance engine's terms (src/search/relevance-page.ts): equally relevant titles in id order. */
export const PRODUCT_SEARCH_TABLE: SearchTable = {
  table: 'products',
  alias: 'p',
  order: 'p.id',
  orderWhole: 'p.id + 0',
  walk: '(SELECT id, search_terms FROM products ORDER BY id OFFSET 0) p',
  listed: null,
  roundRobin: false,
  termListsUnestimated: false,
};

/** A filter ready for SQL: q's words matched against the title vocabulary. */
export interface ResolvedProductFilter extends ProductFilterValues {
  textMatch?: TextMatch;
}

export async function resolveProductFilter(
  pool: Queryable,
  filter: ProductFilterValues,
): Promise<ResolvedProductFilter> {
  if (!filter.q) return filter;
  return {
    ...filter,
    textMatch: await matchWords(pool, PRODUCT_VOCABULARY, searchWords(filter.q)),
  };
}

/** The filters besides q. Prices compare in each product's own currency. */
function otherConditions(filter: ProductFilterValues, params: SqlParams): string[] {
  const where: string[] = [];
  if (filter.isBestSeller != null)
    where.push(`p.is_best_seller = ${params.add(filter.isBestSeller)}`);
  if (filter.priceMin != null) where.push(`p.price >= ${params.add(filter.priceMin)}`);
  if (filter.priceMax != null) where.push(`p.price <= ${params.add(filter.priceMax)}`);
  if (filter.domain)
    where.push(`p.store_id = (SELECT id FROM stores WHERE domain = ${params.add(filter.domain)})`);
  return where;
}

/** q matches a product holding one of its words' matched terms (the word, a typed prefix, a typo, a longer word containing it). */
function conditions(filter: ResolvedProductFilter, params: SqlParams): string[] {
  const where = otherConditions(filter, params);
  if (filter.q) {
    if (!filter.textMatch)
      throw new Error('q must pass through resolveProductFilter before it becomes SQL');
    where.unshift(holdsMatchedTerms('p', filter.textMatch, params) ?? 'false');
  }
  return where;
}

const whereOf = (conditions: string[]) =>
  conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';

/** What an orderBy can order a product list by besides relevance (products_price_id_idx serves price, products_best_seller_price_id_idx a best-seller list by price). */
export const PRODUCT_ORDER_SQL = { price: 'p.price DESC, p.id DESC' } as const;
export type ProductOrderField = keyof typeof PRODUCT_ORDER_SQL;

/** Without orderBy: a price range → cheapest first; otherwise best-seller rank. Ties end on the id. */
function orderBy(
  filter: ProductFilterValues,
  order?: { field: ProductOrderField; direction: OrderDirection },
): string {
  if (order) return orderSql(PRODUCT_ORDER_SQL[order.field], order.direction);
  if (filter.priceMin != null || filter.priceMax != null) return 'p.price, p.id';
  return 'p.best_seller_rank ASC NULLS LAST, p.id';
}

/** A product list in `order` (else the default above); a title search here is only filtered by q, not ranked. */
export function searchProducts(
  pool: Queryable,
  filter: ResolvedProductFilter,
  { offset, limit }: Window,
  order?: { field: ProductOrderField; direction: OrderDirection },
) {
  const params = new SqlParams();
  const where = whereOf(conditions(filter, params));
  return queryRows<ProductRecord>(
    pool,
    `SELECT ${PRODUCT_COLUMNS} FROM ${PRODUCTS_WITH_STORE} ${where}
     ORDER BY ${orderBy(filter, order)} LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`,
    params.values,
  );
}

export function countProducts(pool: Queryable, filter: ResolvedProductFilter) {
  const params = new SqlParams();
  const fromWhere = `products p ${whereOf(conditions(filter, params))}`;
  // q alone matches every holder of any matched term: when one term alone is held by more products
  // than are ever counted, the count could only end at its cap, so it is not run (reading that many
  // holders through the GIN index costs seconds at catalog scale) and the estimate follows at once
  if (
    filter.textMatch &&
    otherConditions(filter, new SqlParams()).length === 0 &&
    Math.max(0, ...matchedTermCounts(filter.textMatch)) > EXACT_COUNT_LIMIT
  )
    return totalFromCapped(pool, EXACT_COUNT_LIMIT + 1, fromWhere, params.values);
  return countUpTo(pool, fromWhere, params.values);
}

/** The vocabulary's count of products holding each matched term (kept exact by its trigger). */
const matchedTermCounts = (match: TextMatch): number[] =>
  match.words.flatMap((word) => word.terms.map((term) => term.documents));

/**
 * A title search's page in relevance order and its total, in one statement after the vocabulary's
 * (resolveProductFilter). A narrow search is counted alongside; a broad one's total is the
 * vocabulary's count of products holding the matched terms (an upper bound), or with other filters
 * PostgreSQL's estimate, both inexact.
 */
export async function titleSearchPage(
  pool: Queryable,
  filter: ResolvedProductFilter & { textMatch: TextMatch },
  window: Window,
): Promise<Page<ProductRecord>> {
  const match = filter.textMatch;
  const params = new SqlParams();
  const filters = otherConditions(filter, params);
  const { text, counted } = relevancePage(PRODUCT_SEARCH_TABLE, match, {
    params,
    filters,
    exact: [],
    columns: PRODUCT_COLUMNS,
    from: PRODUCTS_WITH_STORE,
    depth: window.offset + window.limit,
    ...window,
  });
  const rows = await queryRows<ProductRecord & { matchTotal?: number }>(pool, text, params.values);
  const page = rows.map(({ matchTotal: _, ...product }) => product);
  if (counted) {
    if (rows[0] || window.offset === 0) return { rows: page, total: rows[0]?.matchTotal ?? 0 };
    const countParams = new SqlParams();
    return {
      rows: page,
      ...(await countUpTo(
        pool,
        `products p ${whereOf(conditions(filter, countParams))}`,
        countParams.values,
      )),
    };
  }
  if (filters.length === 0)
    return {
      rows: page,
      total: Math.round(Math.min(matchedTermDocuments(match), match.documents)),
      exact: false,
    };
  const estimateParams = new SqlParams();
  return {
    rows: page,
    total: await estimatedRows(
      pool,
      `products p ${whereOf(conditions(filter, estimateParams))}`,
      estimateParams.values,
    ),
    exact: false,
  };
}
