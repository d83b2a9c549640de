-- Product lists in price order (cheapest first with a price range, orderBy PRICE): catalog prices
-- cluster on round figures, and over an index of price alone each tie is read whole, joined and
-- sorted by id before the first row comes out. (price, id) is the lists' whole order, read forward or
-- backward, and still serves price ranges and their counts; best sellers get their own, so a
-- best-seller list in price order reads best sellers only.
DROP INDEX IF EXISTS "products_price_idx";
CREATE INDEX IF NOT EXISTS "products_price_id_idx" ON "products" ("price", "id");
CREATE INDEX IF NOT EXISTS "products_best_seller_price_id_idx" ON "products" ("price", "id") WHERE "is_best_seller";
