-- The store list sorted by rating (rating, then visits, then id) had no index of its order: its
-- first page sorted every listed store (about a second for 1M). This one is the whole order.
CREATE INDEX IF NOT EXISTS "stores_service_rating_idx"
  ON "stores" ("service_rating" DESC, "monthly_visits" DESC, "id");
