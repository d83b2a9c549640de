-- The valid values of the store filters with their store counts over the whole catalog (GET
-- /v1/stores/facets without a filter, and the nearest valid values suggested for a filter value
-- the catalog does not have): vertical, industry, category, countryCode, theme, tld (a domain
-- without its first label: "com.example", "co.uk") and app (slug). Recomputed with the rollups
-- (src/rollups/), in the same transaction, so they share store_rollup_refreshes' freshness.
CREATE TABLE "store_facet_counts" (
    "facet" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "stores" INTEGER NOT NULL,
    CONSTRAINT "store_facet_counts_pkey" PRIMARY KEY ("facet", "value")
);
