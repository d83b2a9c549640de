-- A living catalog (src/catalog): every real store re-observed on a schedule, new stores discovered,
-- daily history from observations.

-- History rows are synthetic unless an observation wrote them: the seed's COPY leaves the column to
-- its default, every observation writes false. Adding the column with a constant default is a
-- catalog-only change (no table rewrite, even at 180M rows); the rows an earlier scrape wrote (real
-- stores, never under the seed's reserved .example domain) are then marked observed, store by store
-- through the primary key, so the statement never scans the whole history.
ALTER TABLE "store_daily_snapshots" ADD COLUMN "synthetic" BOOLEAN NOT NULL DEFAULT true;
DO $$
DECLARE
  observed_store integer;
BEGIN
  FOR observed_store IN SELECT "id" FROM "stores" WHERE "last_scraped_at" IS NOT NULL AND "domain" NOT LIKE '%.example' LOOP
    UPDATE "store_daily_snapshots" SET "synthetic" = false WHERE "store_id" = observed_store;
  END LOOP;
END $$;

CREATE TYPE "presence" AS ENUM ('active', 'failing', 'vanished');

-- One row per real store the scheduler keeps observed (synthetic stores never have one).
CREATE TABLE "observation_schedule" (
    "store_id" INTEGER NOT NULL,
    "next_at" TIMESTAMPTZ(3) NOT NULL,
    "queued_at" TIMESTAMPTZ(3),
    "interval_hours" DOUBLE PRECISION NOT NULL,
    "change_rate" DOUBLE PRECISION NOT NULL DEFAULT 0.5,
    "observations" INTEGER NOT NULL DEFAULT 0,
    "last_observed_at" TIMESTAMPTZ(3),
    "last_changed_at" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "presence" "presence" NOT NULL DEFAULT 'active',
    "presence_since" TIMESTAMPTZ(3) NOT NULL,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "gone_failures" INTEGER NOT NULL DEFAULT 0,
    "failure_kind" TEXT,
    "failure_reason" TEXT,
    "moved_to" TEXT,
    "myshopify_domain" TEXT,
    CONSTRAINT "observation_schedule_pkey" PRIMARY KEY ("store_id"),
    CONSTRAINT "observation_schedule_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- the scheduler's claim: the earliest due stores not already queued
CREATE INDEX "observation_schedule_due_idx" ON "observation_schedule" ("next_at") WHERE "queued_at" IS NULL;
-- the stores in flight (the global concurrency counts them)
CREATE INDEX "observation_schedule_queued_idx" ON "observation_schedule" ("queued_at") WHERE "queued_at" IS NOT NULL;
-- the stores left out of search results (a handful among a million)
CREATE INDEX "observation_schedule_vanished_idx" ON "observation_schedule" ("store_id") WHERE "presence" = 'vanished';
CREATE INDEX "observation_schedule_myshopify_domain_idx" ON "observation_schedule" ("myshopify_domain");
CREATE INDEX "observation_schedule_last_observed_at_idx" ON "observation_schedule" ("last_observed_at");

-- The real stores earlier scrapes added join the rotation, spread over the next week.
INSERT INTO "observation_schedule" ("store_id", "next_at", "interval_hours", "observations", "last_observed_at", "last_attempt_at", "presence_since")
SELECT "id", now() + random() * interval '7 days', 168, 1, "last_scraped_at", "last_scraped_at", now()
  FROM "stores" WHERE "last_scraped_at" IS NOT NULL AND "domain" NOT LIKE '%.example';

-- Every observation's outcome, kept OBSERVATION_LOG_RETENTION_HOURS for the operations console.
CREATE TABLE "observation_log" (
    "id" BIGSERIAL NOT NULL,
    "store_id" INTEGER,
    "domain" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "changes" INTEGER NOT NULL DEFAULT 0,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "worker" TEXT,
    CONSTRAINT "observation_log_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "observation_log_finished_at_idx" ON "observation_log" ("finished_at");

-- Domains offered to the catalog (an import, a link on a store's page, a store's new host), each
-- validated as a storefront before it becomes a store.
CREATE TYPE "candidate_status" AS ENUM ('pending', 'queued', 'accepted', 'duplicate', 'rejected');
CREATE TABLE "catalog_candidates" (
    "domain" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "found_on" TEXT,
    "status" "candidate_status" NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    "store_id" INTEGER,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "catalog_candidates_pkey" PRIMARY KEY ("domain"),
    CONSTRAINT "catalog_candidates_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "catalog_candidates_due_idx" ON "catalog_candidates" ("next_at") WHERE "status" = 'pending';
CREATE INDEX "catalog_candidates_status_idx" ON "catalog_candidates" ("status");

-- Each crawler worker process's settings and heartbeat, for the operations console.
CREATE TABLE "crawler_workers" (
    "id" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "global_concurrency" INTEGER NOT NULL,
    "settings" JSONB NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "crawler_workers_pkey" PRIMARY KEY ("id")
);
