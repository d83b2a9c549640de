-- A country's best-rated stores (sort=rating: rating, then visits, then id). Over the rating index
-- alone a country's first page was filtered out of every other country's best-rated stores (47 ms for
-- DE and 67 ms for a small country among 1M); this one leads with the country.
CREATE INDEX IF NOT EXISTS "stores_country_code_service_rating_idx"
  ON "stores" ("country_code", "service_rating" DESC, "monthly_visits" DESC, "id");
