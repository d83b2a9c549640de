-- The store filters compare names case-insensitively (src/stores/store-filter.ts:
-- lower(s.vertical) = lower($n), the same for industry and category), which the plain btree on
-- (vertical, monthly_visits) cannot serve. At 1M stores a vertical filter otherwise walks the
-- country or visits index and rechecks every row; these serve the filter itself and the default
-- sorts behind it (visits, revenue). Prisma cannot express expression indexes, so they live here
-- only (schema.prisma describes columns).
CREATE INDEX IF NOT EXISTS "stores_lower_vertical_monthly_visits_idx" ON "stores" (lower("vertical"), "monthly_visits" DESC);
CREATE INDEX IF NOT EXISTS "stores_lower_vertical_revenue_high_usd_idx" ON "stores" (lower("vertical"), "revenue_high_usd" DESC);
CREATE INDEX IF NOT EXISTS "stores_lower_industry_monthly_visits_idx" ON "stores" (lower("industry"), "monthly_visits" DESC);
CREATE INDEX IF NOT EXISTS "stores_lower_category_monthly_visits_idx" ON "stores" (lower("category"), "monthly_visits" DESC);

-- The planner knows the distribution of an indexed expression only after ANALYZE.
ANALYZE "stores";
