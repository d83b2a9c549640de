-- Initial structured store. Hand-written to match prisma/schema.prisma (Prisma Migrate's schema
-- engine cannot be downloaded on our machines); applied by src/platform/database/migrate.ts and
-- still recognised by `prisma migrate deploy` elsewhere.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- enums
CREATE TYPE "plan" AS ENUM ('free', 'starter', 'pro');
CREATE TYPE "signal_status" AS ENUM ('tracked', 'paused');
CREATE TYPE "probe_status" AS ENUM ('queued', 'running', 'done', 'failed');
CREATE TYPE "scrape_status" AS ENUM ('queued', 'validating', 'scraping', 'done', 'failed');
CREATE TYPE "delivery_status" AS ENUM ('pending', 'delivered', 'failed');

-- catalog
CREATE TABLE "stores" (
    "id" SERIAL NOT NULL,
    "domain" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "legacy_id" TEXT,
    "country_code" CHAR(2),
    "currency" CHAR(3) NOT NULL DEFAULT 'USD',
    "industry" TEXT,
    "vertical" TEXT,
    "category" TEXT,
    "theme_name" TEXT,
    "product_count" INTEGER NOT NULL DEFAULT 0,
    "best_seller_count" INTEGER NOT NULL DEFAULT 0,
    "app_count" INTEGER NOT NULL DEFAULT 0,
    "median_price_usd" DOUBLE PRECISION,
    "social_followers" INTEGER NOT NULL DEFAULT 0,
    "dropship_signals" INTEGER NOT NULL DEFAULT 0,
    "monthly_visits" INTEGER NOT NULL DEFAULT 0,
    "revenue_low_usd" INTEGER NOT NULL DEFAULT 0,
    "revenue_high_usd" INTEGER NOT NULL DEFAULT 0,
    "conversion_low_pct" DOUBLE PRECISION,
    "conversion_high_pct" DOUBLE PRECISION,
    "average_order_value_usd" DOUBLE PRECISION,
    "ad_spend_usd" INTEGER NOT NULL DEFAULT 0,
    "is_dropshipper" BOOLEAN NOT NULL DEFAULT false,
    "dropshipper_score" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "service_rating" SMALLINT NOT NULL DEFAULT 0,
    "service_grade" TEXT NOT NULL DEFAULT 'F',
    "visits_change_pct" DOUBLE PRECISION,
    "revenue_change_pct" DOUBLE PRECISION,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_scraped_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "stores_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "stores_service_rating_range" CHECK ("service_rating" BETWEEN 0 AND 100),
    CONSTRAINT "stores_revenue_band_ordered" CHECK ("revenue_low_usd" <= "revenue_high_usd")
);
CREATE UNIQUE INDEX "stores_domain_key" ON "stores"("domain");
CREATE UNIQUE INDEX "stores_legacy_id_key" ON "stores"("legacy_id");
CREATE INDEX "stores_vertical_monthly_visits_idx" ON "stores"("vertical", "monthly_visits" DESC);
CREATE INDEX "stores_country_code_monthly_visits_idx" ON "stores"("country_code", "monthly_visits" DESC);
CREATE INDEX "stores_monthly_visits_idx" ON "stores"("monthly_visits" DESC);
CREATE INDEX "stores_revenue_high_usd_idx" ON "stores"("revenue_high_usd" DESC);
-- fuzzy q search on brand and domain (trigram); not expressible in Prisma
CREATE INDEX "stores_domain_trgm_idx" ON "stores" USING GIN ("domain" gin_trgm_ops);
CREATE INDEX "stores_name_trgm_idx" ON "stores" USING GIN ("name" gin_trgm_ops);
-- movers: only stores with a measured change take part
CREATE INDEX "stores_visits_change_pct_idx" ON "stores"("visits_change_pct") WHERE "visits_change_pct" IS NOT NULL;
CREATE INDEX "stores_revenue_change_pct_idx" ON "stores"("revenue_change_pct") WHERE "revenue_change_pct" IS NOT NULL;

CREATE TABLE "products" (
    "id" SERIAL NOT NULL,
    "store_id" INTEGER NOT NULL,
    "handle" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "vendor" TEXT,
    "product_type" TEXT,
    "price" DECIMAL(12,2) NOT NULL,
    "compare_at_price" DECIMAL(12,2),
    "currency" CHAR(3),
    "is_best_seller" BOOLEAN NOT NULL DEFAULT false,
    "best_seller_rank" INTEGER,
    "available" BOOLEAN NOT NULL DEFAULT true,
    "variant_count" SMALLINT NOT NULL DEFAULT 1,
    "image_url" TEXT,
    "published_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "products_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "products_store_id_handle_key" ON "products"("store_id", "handle");
CREATE INDEX "products_price_idx" ON "products"("price");
CREATE INDEX "products_title_trgm_idx" ON "products" USING GIN ("title" gin_trgm_ops);
CREATE INDEX "products_best_sellers_idx" ON "products"("store_id", "best_seller_rank") WHERE "is_best_seller";

CREATE TABLE "change_records" (
    "id" SERIAL NOT NULL,
    "store_id" INTEGER NOT NULL,
    "entity" TEXT NOT NULL,
    "change_type" TEXT NOT NULL,
    "subject" TEXT,
    "summary" TEXT NOT NULL,
    "old_value" TEXT,
    "new_value" TEXT,
    "change_pct" DOUBLE PRECISION,
    "detected_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "change_records_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "change_records_detected_at_idx" ON "change_records"("detected_at" DESC);
CREATE INDEX "change_records_store_id_detected_at_idx" ON "change_records"("store_id", "detected_at" DESC);
CREATE INDEX "change_records_entity_change_type_detected_at_idx" ON "change_records"("entity", "change_type", "detected_at" DESC);

CREATE TABLE "store_daily_snapshots" (
    "store_id" INTEGER NOT NULL,
    "day" DATE NOT NULL,
    "monthly_visits" INTEGER NOT NULL,
    "revenue_low_usd" INTEGER NOT NULL,
    "revenue_high_usd" INTEGER NOT NULL,
    "service_rating" SMALLINT NOT NULL,
    "product_count" INTEGER NOT NULL,
    CONSTRAINT "store_daily_snapshots_pkey" PRIMARY KEY ("store_id", "day")
);

CREATE TABLE "traffic_monthly" (
    "store_id" INTEGER NOT NULL,
    "month" DATE NOT NULL,
    "visits" INTEGER NOT NULL,
    "organic_pct" DOUBLE PRECISION NOT NULL,
    "paid_pct" DOUBLE PRECISION NOT NULL,
    "social_pct" DOUBLE PRECISION NOT NULL,
    "direct_pct" DOUBLE PRECISION NOT NULL,
    "referral_pct" DOUBLE PRECISION NOT NULL,
    "source" TEXT NOT NULL,
    CONSTRAINT "traffic_monthly_pkey" PRIMARY KEY ("store_id", "month")
);

CREATE TABLE "apps" (
    "id" SERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "developer" TEXT,
    "category" TEXT,
    "pricing" TEXT,
    "rating" DOUBLE PRECISION,
    "review_count" INTEGER NOT NULL DEFAULT 0,
    "app_store_url" TEXT,
    "detection_patterns" TEXT[],
    "install_count" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "apps_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "apps_slug_key" ON "apps"("slug");
CREATE INDEX "apps_install_count_idx" ON "apps"("install_count" DESC);
CREATE INDEX "apps_name_trgm_idx" ON "apps" USING GIN ("name" gin_trgm_ops);

CREATE TABLE "store_apps" (
    "store_id" INTEGER NOT NULL,
    "app_id" INTEGER NOT NULL,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "store_apps_pkey" PRIMARY KEY ("store_id", "app_id")
);
CREATE INDEX "store_apps_app_id_store_id_idx" ON "store_apps"("app_id", "store_id");

CREATE TABLE "legacy_store_summaries" (
    "domain" TEXT NOT NULL,
    "legacy_id" TEXT NOT NULL,
    "doc" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "legacy_store_summaries_pkey" PRIMARY KEY ("domain")
);
CREATE UNIQUE INDEX "legacy_store_summaries_legacy_id_key" ON "legacy_store_summaries"("legacy_id");

-- access
CREATE TABLE "accounts" (
    "id" SERIAL NOT NULL,
    "external_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "plan" "plan" NOT NULL DEFAULT 'free',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "accounts_external_id_key" ON "accounts"("external_id");

CREATE TABLE "api_keys" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "name" TEXT,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "scopes" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");
CREATE INDEX "api_keys_account_id_idx" ON "api_keys"("account_id");

CREATE TABLE "quota_usage" (
    "account_id" INTEGER NOT NULL,
    "bucket" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "used" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "quota_usage_pkey" PRIMARY KEY ("account_id", "bucket", "day")
);

-- signals
CREATE TABLE "signals" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "store_id" INTEGER NOT NULL,
    "status" "signal_status" NOT NULL DEFAULT 'tracked',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_probe_at" TIMESTAMPTZ(3),
    "next_probe_at" TIMESTAMPTZ(3),
    CONSTRAINT "signals_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "signals_account_id_store_id_key" ON "signals"("account_id", "store_id");
CREATE INDEX "signals_store_id_idx" ON "signals"("store_id");
CREATE INDEX "signals_status_next_probe_at_idx" ON "signals"("status", "next_probe_at");

CREATE TABLE "signal_probes" (
    "id" SERIAL NOT NULL,
    "signal_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "status" "probe_status" NOT NULL DEFAULT 'queued',
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "signal_probes_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "signal_probes_signal_id_created_at_idx" ON "signal_probes"("signal_id", "created_at" DESC);

CREATE TABLE "tracked_variants" (
    "id" SERIAL NOT NULL,
    "signal_id" INTEGER NOT NULL,
    "product_handle" TEXT NOT NULL,
    "variant_id" TEXT NOT NULL,
    "sku" TEXT,
    "title" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "tracked_variants_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "tracked_variants_signal_id_variant_id_key" ON "tracked_variants"("signal_id", "variant_id");

CREATE TABLE "inventory_snapshots" (
    "id" SERIAL NOT NULL,
    "tracked_variant_id" INTEGER NOT NULL,
    "probe_id" INTEGER NOT NULL,
    "taken_at" TIMESTAMPTZ(3) NOT NULL,
    "stock" INTEGER,
    "price" DECIMAL(12,2) NOT NULL,
    "available" BOOLEAN NOT NULL,
    CONSTRAINT "inventory_snapshots_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "inventory_snapshots_tracked_variant_id_taken_at_idx" ON "inventory_snapshots"("tracked_variant_id", "taken_at");

CREATE TABLE "insights" (
    "id" SERIAL NOT NULL,
    "signal_id" INTEGER NOT NULL,
    "account_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "read_at" TIMESTAMPTZ(3),
    CONSTRAINT "insights_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "insights_signal_id_created_at_idx" ON "insights"("signal_id", "created_at" DESC);
CREATE INDEX "insights_account_id_created_at_idx" ON "insights"("account_id", "created_at" DESC);

CREATE TABLE "ads" (
    "id" SERIAL NOT NULL,
    "store_id" INTEGER NOT NULL,
    "network" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "headline" TEXT,
    "body" TEXT,
    "media_url" TEXT,
    "landing_url" TEXT,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    CONSTRAINT "ads_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ads_network_external_id_key" ON "ads"("network", "external_id");
CREATE INDEX "ads_store_id_first_seen_at_idx" ON "ads"("store_id", "first_seen_at" DESC);

-- scrapes
CREATE TABLE "scrape_requests" (
    "id" UUID NOT NULL,
    "account_id" INTEGER,
    "domain" TEXT NOT NULL,
    "store_id" INTEGER,
    "status" "scrape_status" NOT NULL DEFAULT 'queued',
    "force" BOOLEAN NOT NULL DEFAULT false,
    "callback_url" TEXT,
    "failure_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),
    CONSTRAINT "scrape_requests_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "scrape_requests_domain_created_at_idx" ON "scrape_requests"("domain", "created_at" DESC);
CREATE INDEX "scrape_requests_created_at_idx" ON "scrape_requests"("created_at" DESC);

CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "scrape_request_id" UUID NOT NULL,
    "event" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "delivery_status" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "webhook_deliveries_scrape_request_id_event_key" ON "webhook_deliveries"("scrape_request_id", "event");
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- foreign keys
ALTER TABLE "products" ADD CONSTRAINT "products_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "change_records" ADD CONSTRAINT "change_records_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "store_daily_snapshots" ADD CONSTRAINT "store_daily_snapshots_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "traffic_monthly" ADD CONSTRAINT "traffic_monthly_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "store_apps" ADD CONSTRAINT "store_apps_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "store_apps" ADD CONSTRAINT "store_apps_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "signals" ADD CONSTRAINT "signals_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "signals" ADD CONSTRAINT "signals_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "signal_probes" ADD CONSTRAINT "signal_probes_signal_id_fkey" FOREIGN KEY ("signal_id") REFERENCES "signals"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "tracked_variants" ADD CONSTRAINT "tracked_variants_signal_id_fkey" FOREIGN KEY ("signal_id") REFERENCES "signals"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "inventory_snapshots" ADD CONSTRAINT "inventory_snapshots_tracked_variant_id_fkey" FOREIGN KEY ("tracked_variant_id") REFERENCES "tracked_variants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "inventory_snapshots" ADD CONSTRAINT "inventory_snapshots_probe_id_fkey" FOREIGN KEY ("probe_id") REFERENCES "signal_probes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "insights" ADD CONSTRAINT "insights_signal_id_fkey" FOREIGN KEY ("signal_id") REFERENCES "signals"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "insights" ADD CONSTRAINT "insights_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "ads" ADD CONSTRAINT "ads_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "scrape_requests" ADD CONSTRAINT "scrape_requests_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "scrape_requests" ADD CONSTRAINT "scrape_requests_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_scrape_request_id_fkey" FOREIGN KEY ("scrape_request_id") REFERENCES "scrape_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;
