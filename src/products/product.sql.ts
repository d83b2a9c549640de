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

/** Select list for `products p JOIN stores s ON s.id = p.store_id`. */
export const PRODUCT_COLUMNS = `p.id, p.store_id AS "storeId", s.domain, p.handle, p.title, p.vendor,
  p.product_type AS "productType", p.price::float8 AS price, p.compare_at_price::float8 AS "compareAtPrice",
  trim(p.currency) AS currency, p.is_best_seller AS "isBestSeller", p.best_seller_rank AS "bestSellerRank",
  p.available, p.variant_count AS "variantCount", p.image_url AS "imageUrl", p.published_at AS "publishedAt",
  p.updated_at AS "updatedAt"`;

export const PRODUCTS_WITH_STORE = 'products p JOIN stores s ON s.id = p.store_id';
