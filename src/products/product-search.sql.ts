// The product search behind `products` (GET /v1/products).
import type { Window } from '../graphql/pagination.ts';
import { countUpTo, likeContains, queryRows, SqlParams, type Queryable } from '../platform/database/sql.ts';
import { countFuzzyMatches } from '../stores/row-estimate.ts';
import { PRODUCT_COLUMNS, PRODUCTS_WITH_STORE, type ProductRecord } from './product.sql.ts';

export interface ProductFilterValues {
  q?: string | null;
  isBestSeller?: boolean | null;
  priceMin?: number | null;
  priceMax?: number | null;
  /** canonical domain */
  domain?: string | null;
}

/**
 * Title search: a substring (ILIKE, served by the trigram GIN index on title) or a fuzzy word
 * match. Prices compare in each product's own currency.
 */
function conditions(filter: ProductFilterValues, params: SqlParams): string {
  const where: string[] = [];
  if (filter.q) {
    const q = params.add(filter.q.trim());
    where.push(`(p.title ILIKE ${params.add(likeContains(filter.q.trim()))} OR ${q} <% p.title)`);
  }
  if (filter.isBestSeller != null) where.push(`p.is_best_seller = ${params.add(filter.isBestSeller)}`);
  if (filter.priceMin != null) where.push(`p.price >= ${params.add(filter.priceMin)}`);
  if (filter.priceMax != null) where.push(`p.price <= ${params.add(filter.priceMax)}`);
  if (filter.domain) where.push(`p.store_id = (SELECT id FROM stores WHERE domain = ${params.add(filter.domain)})`);
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}

/**
 * q → closest titles first; a price range → cheapest first; otherwise best-seller rank.
 * A title search alone orders by the word-similarity distance (<<->, 1 - word_similarity) that the
 * GiST index on lower(title) serves nearest first (KNN): a common word's page is the first rows
 * of that index scan instead of a ranking of its hundreds of thousands of matches. Equally close
 * titles come in index order (an id tie-break would sort all of them); the index sits on
 * lower(title) so that the planner keeps filtering rare words with the GIN index on title (a
 * bitmap scan of the GiST index reads most of its 1.3 GB). Trigrams ignore case, so lower() does
 * not change a distance. With other filters the matches are few enough to rank by similarity.
 */
function orderBy(filter: ProductFilterValues, params: SqlParams): string {
  if (filter.q && titleSearchOnly(filter)) return `lower(${params.add(filter.q.trim())}) <<-> lower(p.title)`;
  if (filter.q) return `word_similarity(${params.add(filter.q.trim())}, p.title) DESC, p.id`;
  if (filter.priceMin != null || filter.priceMax != null) return 'p.price, p.id';
  return 'p.best_seller_rank ASC NULLS LAST, p.id';
}

export function searchProducts(pool: Queryable, filter: ProductFilterValues, { offset, limit }: Window) {
  const params = new SqlParams();
  const where = conditions(filter, params);
  return queryRows<ProductRecord>(
    pool,
    `SELECT ${PRODUCT_COLUMNS} FROM ${PRODUCTS_WITH_STORE} ${where}
     ORDER BY ${orderBy(filter, params)} LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`,
    params.values,
  );
}

const titleSearchOnly = (filter: ProductFilterValues) =>
  filter.isBestSeller == null && filter.priceMin == null && filter.priceMax == null && !filter.domain;

export function countProducts(pool: Queryable, filter: ProductFilterValues) {
  const params = new SqlParams();
  return (filter.q ? countFuzzyMatches : countUpTo)(pool, `products p ${conditions(filter, params)}`, params.values);
}
