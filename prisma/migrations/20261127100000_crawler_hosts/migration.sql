-- The crawler's manners kept where every worker process (and one started after a restart) sees them.
--
-- crawler_host_holds: a storefront that asked us to wait (a Retry-After past what one read waits, on
-- any path or on robots.txt) is asked nothing until `until`, by any process.
CREATE TABLE "crawler_host_holds" (
  "domain" TEXT NOT NULL PRIMARY KEY,
  "until" TIMESTAMPTZ(3) NOT NULL,
  "reason" TEXT
);

-- Discovery budgets (src/catalog/discovery-budget.ts): how far from an imported or scraped store a
-- linked candidate was found (depth), the registrable domain it belongs to, and when it was first
-- claimed for validation (what the per-day budgets count).
ALTER TABLE "catalog_candidates"
  ADD COLUMN "depth" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "registrable_domain" TEXT,
  ADD COLUMN "claimed_at" TIMESTAMPTZ(3);
CREATE INDEX "catalog_candidates_claimed_at_idx" ON "catalog_candidates" ("claimed_at") WHERE "claimed_at" IS NOT NULL;

-- A store that moved to a new host keeps its id under its new domain; its old domains lead to it.
CREATE TABLE "store_moves" (
  "old_domain" TEXT NOT NULL PRIMARY KEY,
  "store_id" INTEGER NOT NULL REFERENCES "stores" ("id") ON DELETE CASCADE,
  "new_domain" TEXT NOT NULL,
  "moved_at" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "store_moves_store_id_idx" ON "store_moves" ("store_id");
