-- The store filters on app changes (installedApp / uninstalledApp with a window) count their stores
-- up to 10,001 by a semi-join with the stores in id order. From (app_id, installed_at) the planner
-- must hash every period of the window first, however wide; in (app_id, store_id) order it merges
-- with the stores and stops at the cap, the dates read from the index itself.
CREATE INDEX "store_app_periods_app_store_idx" ON "store_app_periods" ("app_id", "store_id") INCLUDE ("installed_at", "uninstalled_at");
