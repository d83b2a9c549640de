// How raw SQL reads a product: its columns (money as float8 numbers) plus its store's domain,
// since (domain, handle) is how callers name a product.
export interface ProductRecord {
  id: number;
  storeId: number;
  domain: string;
  handle: string;
  title: string;
  vendor: string | null;
  productType: string | null;
  price: number;
  compareAtPrice: number | null;
  /** ISO 4217; null means USD */
  currency: string | null;
  isBestSeller: boolean;
  bestSellerRank: number | null;
  available: boolean;
  variantCount: number;
  imageUrl: string | null;
  publishedAt: Date | null;
  updatedAt: Date;
}

/** Each record key's column of `products p JOIN stores s ON s.id = p.store_id`, in the record's order. */
const PRODUCT_COLUMN_OF: Readonly<Record<keyof ProductRecord, string>> = {
  id: 'p.id',
  storeId: 'p.store_id AS "storeId"',
  domain: 's.domain',
  handle: 'p.handle',
  title: 'p.title',
  vendor: 'p.vendor',
  productType: 'p.product_type AS "productType"',
  price: 'p.price::float8 AS price',
  compareAtPrice: 'p.compare_at_price::float8 AS "compareAtPrice"',
  currency: 'trim(p.currency) AS currency',
  isBestSeller: 'p.is_best_seller AS "isBestSeller"',
  bestSellerRank: 'p.best_seller_rank AS "bestSellerRank"',
  available: 'p.available',
  variantCount: 'p.variant_count AS "variantCount"',
  imageUrl: 'p.image_url AS "imageUrl"',
  publishedAt: 'p.published_at AS "publishedAt"',
  updatedAt: 'p.updated_at AS "updatedAt"',
};

/** The select list of some of a product's keys. */
export const productColumns = (keys: readonly (keyof ProductRecord)[]): string =>
  keys.map((key) => PRODUCT_COLUMN_OF[key]).join(', ');

/** Select list of the whole record. */
export const PRODUCT_COLUMNS = productColumns(
  Object.keys(PRODUCT_COLUMN_OF) as (keyof ProductRecord)[],
);

export const PRODUCTS_WITH_STORE = 'products p JOIN stores s ON s.id = p.store_id';
