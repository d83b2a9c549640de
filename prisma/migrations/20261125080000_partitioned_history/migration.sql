-- The append-only series that grow with time, partitioned by month with PostgreSQL's native range
-- partitioning: store_daily_snapshots by day, change_records by detected_at. A query bounded in
-- time reads only the months it names (partition pruning), a newest-first read with a LIMIT stops
-- in the newest months (ordered partition scans), old months leave by DROP TABLE instead of DELETE
-- (retention: HISTORY_RETENTION_MONTHS, src/platform/database/month-partitions.ts), and each
-- month's indexes stay small. There is no DEFAULT partition (it would keep the planner from reading
-- partitions in order): months are made three ahead by the upkeep job, and a writer makes the
-- month it writes into when it is missing (ensureMonthPartitions).
--
-- The existing tables are converted with their data: renamed aside, a partitioned table of the same
-- name and columns created, its month partitions made for the whole span of the data, the rows
-- copied (each routed to its month), keys and indexes built once on the loaded partitions, and the
-- old table dropped, all in this migration's transaction. It needs free disk for a second copy of
-- the two tables while it runs and blocks writes to them until it commits; at 1M stores (180M
-- snapshots) it takes tens of minutes: docs/scaling.md has the measured time.

SET LOCAL maintenance_work_mem = '1GB';
SET LOCAL max_parallel_maintenance_workers = 2;

-- Makes the month partitions of `parent` from the month of `first_day` to that of `last_day`
-- (existing ones are kept), named <parent>_pYYYYMM, with UTC-midnight bounds whatever the
-- session's time zone. A new month is created apart and then attached, which takes only a SHARE
-- UPDATE EXCLUSIVE lock on the parent, so reads and writes of the table go on meanwhile. Makers
-- of one table take turns on an advisory lock. Returns how many partitions it made.
CREATE FUNCTION ensure_month_partitions(parent regclass, first_day date, last_day date) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  base text := (SELECT relname FROM pg_class WHERE oid = parent);
  month date := date_trunc('month', first_day)::date;
  part text;
  made integer := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(72707004, hashtext(base));
  WHILE month <= last_day LOOP
    part := format('%s_p%s', base, to_char(month, 'YYYYMM'));
    IF to_regclass(quote_ident(part)) IS NULL THEN
      EXECUTE format('CREATE TABLE %I (LIKE %s INCLUDING DEFAULTS)', part, parent);
      EXECUTE format('ALTER TABLE %s ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
                     parent, part, month::text || ' 00:00:00+00', (month + interval '1 month')::date::text || ' 00:00:00+00');
      made := made + 1;
    END IF;
    month := (month + interval '1 month')::date;
  END LOOP;
  RETURN made;
END $$;

-- Drops the month partitions of `parent` before the month of `keep_from`. Returns how many.
CREATE FUNCTION drop_month_partitions_before(parent regclass, keep_from date) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  base text := (SELECT relname FROM pg_class WHERE oid = parent);
  part record;
  dropped integer := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(72707004, hashtext(base));
  FOR part IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = parent AND c.relname ~ ('^' || base || '_p[0-9]{6}$')
       AND to_date(right(c.relname, 6), 'YYYYMM') < date_trunc('month', keep_from)::date
     ORDER BY c.relname
  LOOP
    EXECUTE format('DROP TABLE %I', part.relname);
    dropped := dropped + 1;
  END LOOP;
  RETURN dropped;
END $$;

-- store_daily_snapshots ----------------------------------------------------------------------------
ALTER TABLE "store_daily_snapshots" RENAME TO "store_daily_snapshots_unpartitioned";
ALTER TABLE "store_daily_snapshots_unpartitioned" RENAME CONSTRAINT "store_daily_snapshots_pkey" TO "store_daily_snapshots_unpartitioned_pkey";
ALTER TABLE "store_daily_snapshots_unpartitioned" RENAME CONSTRAINT "store_daily_snapshots_store_id_fkey" TO "store_daily_snapshots_unpartitioned_store_id_fkey";

CREATE TABLE "store_daily_snapshots" (
    "store_id" INTEGER NOT NULL,
    "day" DATE NOT NULL,
    "monthly_visits" INTEGER NOT NULL,
    "revenue_low_usd" INTEGER NOT NULL,
    "revenue_high_usd" INTEGER NOT NULL,
    "service_rating" SMALLINT NOT NULL,
    "product_count" INTEGER NOT NULL
) PARTITION BY RANGE ("day");
SELECT ensure_month_partitions('store_daily_snapshots',
  LEAST((SELECT min("day") FROM "store_daily_snapshots_unpartitioned"), current_date),
  GREATEST((SELECT max("day") FROM "store_daily_snapshots_unpartitioned"), (current_date + interval '3 months')::date));

INSERT INTO "store_daily_snapshots" SELECT * FROM "store_daily_snapshots_unpartitioned";
DROP TABLE "store_daily_snapshots_unpartitioned";

ALTER TABLE "store_daily_snapshots" ADD CONSTRAINT "store_daily_snapshots_pkey" PRIMARY KEY ("store_id", "day");
-- added after the load: PostgreSQL checks the existing rows with one join per partition
ALTER TABLE "store_daily_snapshots" ADD CONSTRAINT "store_daily_snapshots_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- change_records -----------------------------------------------------------------------------------
-- A partitioned table's keys include its partition column: the primary key becomes (id, detected_at);
-- ids stay unique, drawn from the same sequence.
ALTER TABLE "change_records" RENAME TO "change_records_unpartitioned";
ALTER TABLE "change_records_unpartitioned" RENAME CONSTRAINT "change_records_pkey" TO "change_records_unpartitioned_pkey";
ALTER TABLE "change_records_unpartitioned" RENAME CONSTRAINT "change_records_store_id_fkey" TO "change_records_unpartitioned_store_id_fkey";
ALTER INDEX "change_records_detected_at_idx" RENAME TO "change_records_unpartitioned_detected_at_idx";
ALTER INDEX "change_records_store_id_detected_at_idx" RENAME TO "change_records_unpartitioned_store_id_detected_at_idx";
ALTER INDEX "change_records_entity_change_type_detected_at_idx" RENAME TO "change_records_unpartitioned_entity_change_type_detected_at_idx";

CREATE TABLE "change_records" (
    "id" INTEGER NOT NULL,
    "store_id" INTEGER NOT NULL,
    "entity" TEXT NOT NULL,
    "change_type" TEXT NOT NULL,
    "subject" TEXT,
    "summary" TEXT NOT NULL,
    "old_value" TEXT,
    "new_value" TEXT,
    "change_pct" DOUBLE PRECISION,
    "detected_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
) PARTITION BY RANGE ("detected_at");
ALTER SEQUENCE "change_records_id_seq" OWNED BY "change_records"."id";
ALTER TABLE "change_records" ALTER COLUMN "id" SET DEFAULT nextval('"change_records_id_seq"');
SELECT ensure_month_partitions('change_records',
  LEAST((SELECT min("detected_at" AT TIME ZONE 'UTC') FROM "change_records_unpartitioned")::date, current_date),
  GREATEST((SELECT max("detected_at" AT TIME ZONE 'UTC') FROM "change_records_unpartitioned")::date, (current_date + interval '3 months')::date));

INSERT INTO "change_records" SELECT * FROM "change_records_unpartitioned";
DROP TABLE "change_records_unpartitioned";

ALTER TABLE "change_records" ADD CONSTRAINT "change_records_pkey" PRIMARY KEY ("id", "detected_at");
CREATE INDEX "change_records_detected_at_idx" ON "change_records"("detected_at" DESC);
CREATE INDEX "change_records_store_id_detected_at_idx" ON "change_records"("store_id", "detected_at" DESC);
CREATE INDEX "change_records_entity_change_type_detected_at_idx" ON "change_records"("entity", "change_type", "detected_at" DESC);
ALTER TABLE "change_records" ADD CONSTRAINT "change_records_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ANALYZE "store_daily_snapshots";
ANALYZE "change_records";
