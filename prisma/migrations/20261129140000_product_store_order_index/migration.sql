-- A store's products in their order (best-sellers by rank, then the rest by id). Without it a page
-- read every product of the store by (store, handle) and sorted them, and the store's own statement,
-- which carries its first products, did the same: for a store of thousands of products, thousands of
-- rows per read. NULLS LAST is ASC's own default, so the index matches the ORDER BY as written.
CREATE INDEX IF NOT EXISTS "products_store_order_idx"
  ON "products" ("store_id", "is_best_seller" DESC, "best_seller_rank", "id");
