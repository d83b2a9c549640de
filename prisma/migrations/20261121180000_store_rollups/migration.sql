-- Whole-catalog aggregates, pre-computed (src/rollups/): at 1M stores the grouped rows of the
-- store search and the analytics overview scan and sort the whole stores table (seconds) on every
-- request. A job recomputes these every few minutes and the seeder after each load; requests
-- without a filter read them while they are fresh (store_rollup_refreshes.refreshed_at), filtered
-- requests and stale rollups use the live query.
--
-- One row per group of every grouping set the API asks for: the whole catalog (dimensions ''),
-- each of country, vertical, industry, category, and each pair of them ('country+category'; the
-- names in that fixed order). A dimension outside the set is NULL; inside it NULL is the group of
-- stores without a value.
CREATE TABLE "store_rollups" (
    "id" INTEGER NOT NULL,
    "dimensions" TEXT NOT NULL,
    "country_code" TEXT,
    "vertical" TEXT,
    "industry" TEXT,
    "category" TEXT,
    "stores" INTEGER NOT NULL,
    "dropshippers" INTEGER NOT NULL,
    "stores_with_traffic" INTEGER NOT NULL,
    "revenue_high_sum" DOUBLE PRECISION,
    "revenue_high_mean" DOUBLE PRECISION,
    "revenue_high_median" DOUBLE PRECISION,
    "revenue_high_max" DOUBLE PRECISION,
    "revenue_high_min" DOUBLE PRECISION,
    "visits_sum" DOUBLE PRECISION,
    "visits_mean" DOUBLE PRECISION,
    "visits_median" DOUBLE PRECISION,
    "visits_max" DOUBLE PRECISION,
    "visits_min" DOUBLE PRECISION,
    "ad_spend_sum" DOUBLE PRECISION,
    "service_rating_mean" DOUBLE PRECISION,
    CONSTRAINT "store_rollups_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "store_rollups_dimensions_idx" ON "store_rollups"("dimensions");

-- When the rollups were last computed (one row): the figures reflect the catalog as of refreshed_at.
CREATE TABLE "store_rollup_refreshes" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "refreshed_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    CONSTRAINT "store_rollup_refreshes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "store_rollup_refreshes_one_row" CHECK ("id" = 1)
);
