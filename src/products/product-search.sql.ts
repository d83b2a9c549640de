// The product search behind `products` (GET /v1/products).
import type { Window } from '../graphql/pagination.ts';
import { countUpTo, likeContains, queryRows, SqlParams, type Queryable } from '../graphql/sql.ts';
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

/** q → closest titles first; a price range → cheapest first; otherwise best-seller rank. */
function orderBy(filter: ProductFilterValues, params: SqlParams): string {
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

export function countProducts(pool: Queryable, filter: ProductFilterValues) {
  const params = new SqlParams();
  return countUpTo(pool, `products p ${conditions(filter, params)}`, params.values);
}
