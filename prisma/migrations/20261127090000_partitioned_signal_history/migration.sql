-- The Signals series that grow with time, partitioned by month like the store history
-- (20261125080000_partitioned_history, whose ensure_month_partitions / drop_month_partitions_before
-- make and drop the months): inventory_snapshots by taken_at (one row per tracked variant per
-- probe, the bulk of Signals) and insights by created_at (the cards of probes and observations,
-- never updated). Reads bounded in time (sales and inventory from a date, the last snapshot before
-- it, the newest insights first) read only the months they need; old months leave by DROP TABLE
-- past SIGNALS_RETENTION_MONTHS (src/platform/database/month-partitions.ts).
--
-- Not partitioned, being state rather than history: ads (one row per creative, upserted on
-- (network, external_id) and updated as it is seen again), signal_probes (updated through
-- queued -> running -> done, looked up by id, referenced by inventory_snapshots), scrape_requests
-- and webhook_deliveries (deleted 15 minutes after the scrape ends and its webhooks are out),
-- observation_log (deleted after hours).
--
-- Converted with their data as in the earlier migration: the old table renamed aside, a
-- partitioned table of the same name and columns (same order) created, the months of the data
-- made, the rows copied, keys, indexes and foreign keys built on the loaded partitions, the old
-- table dropped. Ids keep coming from the same sequences. Nothing references either table.

SET LOCAL maintenance_work_mem = '1GB';
SET LOCAL max_parallel_maintenance_workers = 2;

-- inventory_snapshots ------------------------------------------------------------------------------
-- the primary key includes the partition column: (id, taken_at)
ALTER TABLE "inventory_snapshots" RENAME TO "inventory_snapshots_unpartitioned";
ALTER TABLE "inventory_snapshots_unpartitioned" RENAME CONSTRAINT "inventory_snapshots_pkey" TO "inventory_snapshots_unpartitioned_pkey";
ALTER TABLE "inventory_snapshots_unpartitioned" RENAME CONSTRAINT "inventory_snapshots_tracked_variant_id_fkey" TO "inventory_snapshots_unpartitioned_tracked_variant_id_fkey";
ALTER TABLE "inventory_snapshots_unpartitioned" RENAME CONSTRAINT "inventory_snapshots_probe_id_fkey" TO "inventory_snapshots_unpartitioned_probe_id_fkey";
ALTER INDEX "inventory_snapshots_tracked_variant_id_taken_at_idx" RENAME TO "inventory_snapshots_unpartitioned_tracked_variant_id_taken_at_idx";

CREATE TABLE "inventory_snapshots" (
    "id" INTEGER NOT NULL,
    "tracked_variant_id" INTEGER NOT NULL,
    "probe_id" INTEGER NOT NULL,
    "taken_at" TIMESTAMPTZ(3) NOT NULL,
    "stock" INTEGER,
    "price" DECIMAL(12,2) NOT NULL,
    "available" BOOLEAN NOT NULL
) PARTITION BY RANGE ("taken_at");
ALTER SEQUENCE "inventory_snapshots_id_seq" OWNED BY "inventory_snapshots"."id";
ALTER TABLE "inventory_snapshots" ALTER COLUMN "id" SET DEFAULT nextval('"inventory_snapshots_id_seq"');
SELECT ensure_month_partitions('inventory_snapshots',
  LEAST((SELECT min("taken_at" AT TIME ZONE 'UTC') FROM "inventory_snapshots_unpartitioned")::date, current_date),
  GREATEST((SELECT max("taken_at" AT TIME ZONE 'UTC') FROM "inventory_snapshots_unpartitioned")::date, (current_date + interval '3 months')::date));

INSERT INTO "inventory_snapshots" SELECT * FROM "inventory_snapshots_unpartitioned";
DROP TABLE "inventory_snapshots_unpartitioned";

ALTER TABLE "inventory_snapshots" ADD CONSTRAINT "inventory_snapshots_pkey" PRIMARY KEY ("id", "taken_at");
CREATE INDEX "inventory_snapshots_tracked_variant_id_taken_at_idx" ON "inventory_snapshots"("tracked_variant_id", "taken_at");
ALTER TABLE "inventory_snapshots" ADD CONSTRAINT "inventory_snapshots_tracked_variant_id_fkey" FOREIGN KEY ("tracked_variant_id") REFERENCES "tracked_variants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "inventory_snapshots" ADD CONSTRAINT "inventory_snapshots_probe_id_fkey" FOREIGN KEY ("probe_id") REFERENCES "signal_probes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- insights -----------------------------------------------------------------------------------------
-- the primary key includes the partition column: (id, created_at)
ALTER TABLE "insights" RENAME TO "insights_unpartitioned";
ALTER TABLE "insights_unpartitioned" RENAME CONSTRAINT "insights_pkey" TO "insights_unpartitioned_pkey";
ALTER TABLE "insights_unpartitioned" RENAME CONSTRAINT "insights_signal_id_fkey" TO "insights_unpartitioned_signal_id_fkey";
ALTER TABLE "insights_unpartitioned" RENAME CONSTRAINT "insights_account_id_fkey" TO "insights_unpartitioned_account_id_fkey";
ALTER INDEX "insights_signal_id_created_at_idx" RENAME TO "insights_unpartitioned_signal_id_created_at_idx";
ALTER INDEX "insights_account_id_created_at_idx" RENAME TO "insights_unpartitioned_account_id_created_at_idx";

CREATE TABLE "insights" (
    "id" INTEGER NOT NULL,
    "signal_id" INTEGER NOT NULL,
    "account_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "read_at" TIMESTAMPTZ(3)
) PARTITION BY RANGE ("created_at");
ALTER SEQUENCE "insights_id_seq" OWNED BY "insights"."id";
ALTER TABLE "insights" ALTER COLUMN "id" SET DEFAULT nextval('"insights_id_seq"');
SELECT ensure_month_partitions('insights',
  LEAST((SELECT min("created_at" AT TIME ZONE 'UTC') FROM "insights_unpartitioned")::date, current_date),
  GREATEST((SELECT max("created_at" AT TIME ZONE 'UTC') FROM "insights_unpartitioned")::date, (current_date + interval '3 months')::date));

INSERT INTO "insights" SELECT * FROM "insights_unpartitioned";
DROP TABLE "insights_unpartitioned";

ALTER TABLE "insights" ADD CONSTRAINT "insights_pkey" PRIMARY KEY ("id", "created_at");
CREATE INDEX "insights_signal_id_created_at_idx" ON "insights"("signal_id", "created_at" DESC);
CREATE INDEX "insights_account_id_created_at_idx" ON "insights"("account_id", "created_at" DESC);
ALTER TABLE "insights" ADD CONSTRAINT "insights_signal_id_fkey" FOREIGN KEY ("signal_id") REFERENCES "signals"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "insights" ADD CONSTRAINT "insights_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ANALYZE "inventory_snapshots";
ANALYZE "insights";

-- Making or dropping a month partition adds or drops the foreign key triggers of the tables it
-- references (ShareRowExclusive locks on them: stores; tracked_variants and signal_probes;
-- signals and accounts), one after the other. Waiting for one of them while holding another, a
-- maker could deadlock with a transaction that writes both (a watch created, a probe written), and
-- the deadlock detector could pick the application's transaction. From here on (after this
-- migration's own calls) a maker gives up after 500 ms, below deadlock_timeout (1 s by default):
-- the upkeep tries again at its next sweep, a writer's job at its next attempt.
ALTER FUNCTION ensure_month_partitions(regclass, date, date) SET lock_timeout = '500ms';
ALTER FUNCTION drop_month_partitions_before(regclass, date) SET lock_timeout = '500ms';
