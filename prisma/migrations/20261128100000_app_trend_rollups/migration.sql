-- App trends (GET /v1/apps/{slug}/trend, GET /v1/analytics/apps): counts kept exact as observations
-- arrive (src/apps/app-trend-rollups.ts adds to them inside the observation writer's transaction), so
-- a trend reads a few dozen rows instead of aggregating store_app_periods per request.
-- vertical is the stores' lower-cased vertical and country_code their upper-cased country, '' for
-- "every vertical" / "every country": each store counts in four rows (whole catalog, its country, its
-- vertical, both), fewer when its vertical or country is unknown.

-- per app and calendar month (UTC): periods opened seen installing, periods opened at a store's first
-- observation (already running), periods closed
CREATE TABLE "app_trend_months" (
    "app_id" INTEGER NOT NULL,
    "vertical" TEXT NOT NULL,
    "country_code" TEXT NOT NULL,
    "month" DATE NOT NULL,
    "installs" INTEGER NOT NULL DEFAULT 0,
    "newly_observed" INTEGER NOT NULL DEFAULT 0,
    "uninstalls" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "app_trend_months_pkey" PRIMARY KEY ("app_id", "vertical", "country_code", "month"),
    CONSTRAINT "app_trend_months_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- the same per app and day, whole catalog only (the 90-day net change of the app ranking)
CREATE TABLE "app_install_days" (
    "app_id" INTEGER NOT NULL,
    "day" DATE NOT NULL,
    "installs" INTEGER NOT NULL DEFAULT 0,
    "newly_observed" INTEGER NOT NULL DEFAULT 0,
    "uninstalls" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "app_install_days_pkey" PRIMARY KEY ("app_id", "day"),
    CONSTRAINT "app_install_days_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- catalog stores by the month they were first seen (stores.first_seen_at), the denominator of a share
CREATE TABLE "store_observed_months" (
    "vertical" TEXT NOT NULL,
    "country_code" TEXT NOT NULL,
    "month" DATE NOT NULL,
    "stores" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "store_observed_months_pkey" PRIMARY KEY ("vertical", "country_code", "month")
);

-- an existing catalog's counts: the statements of rebuildAppTrendRollups (src/apps/app-trend-rollups.ts)
INSERT INTO "app_trend_months" ("app_id", "vertical", "country_code", "month", "installs", "newly_observed", "uninstalls")
SELECT e.app_id, COALESCE(e.v, ''), COALESCE(e.c, ''), e.month,
       sum(e.installs)::int, sum(e.newly_observed)::int, sum(e.uninstalls)::int
  FROM (
    SELECT p.app_id, lower(s.vertical) AS v, upper(s.country_code) AS c,
           date_trunc('month', p.installed_at AT TIME ZONE 'UTC')::date AS month,
           p.seen_installing::int AS installs, (NOT p.seen_installing)::int AS newly_observed, 0 AS uninstalls
      FROM store_app_periods p JOIN stores s ON s.id = p.store_id
    UNION ALL
    SELECT p.app_id, lower(s.vertical), upper(s.country_code),
           date_trunc('month', p.uninstalled_at AT TIME ZONE 'UTC')::date, 0, 0, 1
      FROM store_app_periods p JOIN stores s ON s.id = p.store_id
     WHERE p.uninstalled_at IS NOT NULL) e
 GROUP BY GROUPING SETS ((e.app_id, e.month), (e.app_id, e.month, e.v), (e.app_id, e.month, e.c), (e.app_id, e.month, e.v, e.c))
HAVING (GROUPING(e.v) = 1 OR e.v IS NOT NULL) AND (GROUPING(e.c) = 1 OR e.c IS NOT NULL);

INSERT INTO "app_install_days" ("app_id", "day", "installs", "newly_observed", "uninstalls")
SELECT e.app_id, e.day, sum(e.installs)::int, sum(e.newly_observed)::int, sum(e.uninstalls)::int
  FROM (
    SELECT p.app_id, (p.installed_at AT TIME ZONE 'UTC')::date AS day,
           p.seen_installing::int AS installs, (NOT p.seen_installing)::int AS newly_observed, 0 AS uninstalls
      FROM store_app_periods p
    UNION ALL
    SELECT p.app_id, (p.uninstalled_at AT TIME ZONE 'UTC')::date, 0, 0, 1
      FROM store_app_periods p WHERE p.uninstalled_at IS NOT NULL) e
 GROUP BY e.app_id, e.day;

INSERT INTO "store_observed_months" ("vertical", "country_code", "month", "stores")
SELECT COALESCE(e.v, ''), COALESCE(e.c, ''), e.month, count(*)::int
  FROM (SELECT lower(s.vertical) AS v, upper(s.country_code) AS c,
               date_trunc('month', s.first_seen_at AT TIME ZONE 'UTC')::date AS month
          FROM stores s) e
 GROUP BY GROUPING SETS ((e.month), (e.month, e.v), (e.month, e.c), (e.month, e.v, e.c))
HAVING (GROUPING(e.v) = 1 OR e.v IS NOT NULL) AND (GROUPING(e.c) = 1 OR e.c IS NOT NULL);
