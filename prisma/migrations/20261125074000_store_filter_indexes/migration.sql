-- The technology and catalog filters of the store search (src/stores/store-filter.ts) at 1M stores.
-- theme compares lower() on both sides like the other name filters; the index also serves the
-- default revenue order behind a theme. product_count ranges and first_seen_at ranges get plain
-- indexes (first_seen_at DESC, id DESC is also the order of sort=newest, which sorted the whole
-- table before). tld is a suffix of the domain: a prefix of reverse(domain), a range scan of a
-- pattern-ops index. Expression indexes, so they live here only (schema.prisma describes columns).
CREATE INDEX IF NOT EXISTS "stores_lower_theme_name_revenue_idx" ON "stores" (lower("theme_name"), "revenue_high_usd" DESC);
CREATE INDEX IF NOT EXISTS "stores_product_count_idx" ON "stores" ("product_count");
CREATE INDEX IF NOT EXISTS "stores_first_seen_at_idx" ON "stores" ("first_seen_at" DESC, "id" DESC);
CREATE INDEX IF NOT EXISTS "stores_reverse_domain_idx" ON "stores" (reverse("domain") text_pattern_ops);

-- The app filters compare store_apps.app_id with each app's id (src/apps/app-ids.ts), and the
-- planner chooses between walking the sorted stores and starting from the app's installs by the
-- app's share of stores. The default 100-value statistics leave some of the catalog's apps out of
-- the most-common-values list; 1,000 keep every app in it.
ALTER TABLE "store_apps" ALTER COLUMN "app_id" SET STATISTICS 1000;
ANALYZE "stores";
ANALYZE "store_apps";
