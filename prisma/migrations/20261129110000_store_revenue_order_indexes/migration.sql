-- Revenue (then visits, then id) is the store list's default order. With only the revenue index, a
-- page of one country, industry or category was filtered out of the stores of every other before it
-- (for a country of 16,000 stores among 1M, 1,600 rows read to keep 21); these lead with the
-- filter and hold the whole order, so a first page reads its own rows and no sort.
CREATE INDEX IF NOT EXISTS "stores_country_code_revenue_idx"
  ON "stores" ("country_code", "revenue_high_usd" DESC, "monthly_visits" DESC, "id");
CREATE INDEX IF NOT EXISTS "stores_lower_industry_revenue_idx"
  ON "stores" (lower("industry"), "revenue_high_usd" DESC, "monthly_visits" DESC, "id");
CREATE INDEX IF NOT EXISTS "stores_lower_category_revenue_idx"
  ON "stores" (lower("category"), "revenue_high_usd" DESC, "monthly_visits" DESC, "id");
