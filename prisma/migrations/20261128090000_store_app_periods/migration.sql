-- Technology-change intelligence: one row per period a store was observed running an app, from the
-- observation that first saw it running to the one that first saw it without (null while it runs).
-- store_apps stays the current install set; these periods answer "who installed or dropped X and when".
CREATE TABLE "store_app_periods" (
    "id" BIGSERIAL NOT NULL,
    "store_id" INTEGER NOT NULL,
    "app_id" INTEGER NOT NULL,
    "installed_at" TIMESTAMPTZ(3) NOT NULL,
    "uninstalled_at" TIMESTAMPTZ(3),
    "seen_installing" BOOLEAN NOT NULL,
    CONSTRAINT "store_app_periods_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "store_app_periods_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "store_app_periods_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "store_app_periods_order" CHECK ("uninstalled_at" IS NULL OR "uninstalled_at" >= "installed_at")
);
-- at most one open period per store and app: the writer closes it before another can start
CREATE UNIQUE INDEX "store_app_periods_open_key" ON "store_app_periods" ("store_id", "app_id") WHERE "uninstalled_at" IS NULL;
CREATE INDEX "store_app_periods_store_id_idx" ON "store_app_periods" ("store_id", "app_id");
CREATE INDEX "store_app_periods_installed_idx" ON "store_app_periods" ("app_id", "installed_at" DESC) INCLUDE ("store_id");
CREATE INDEX "store_app_periods_uninstalled_idx" ON "store_app_periods" ("app_id", "uninstalled_at" DESC) INCLUDE ("store_id") WHERE "uninstalled_at" IS NOT NULL;

-- An existing catalog's history: every current install is an open period from its first sighting
-- (seen installing when a change record saw it arrive), every recorded uninstall a closed one that
-- began at the install record before it, or at the store's first sighting when none was recorded.
INSERT INTO "store_app_periods" ("store_id", "app_id", "installed_at", "uninstalled_at", "seen_installing")
SELECT sa."store_id", sa."app_id", sa."first_seen_at", NULL,
       EXISTS (SELECT 1 FROM "change_records" c JOIN "apps" a ON a."slug" = c."subject"
                WHERE c."store_id" = sa."store_id" AND a."id" = sa."app_id" AND c."entity" = 'app' AND c."change_type" = 'app_installed')
  FROM "store_apps" sa;

INSERT INTO "store_app_periods" ("store_id", "app_id", "installed_at", "uninstalled_at", "seen_installing")
SELECT u."store_id", a."id", COALESCE(i."detected_at", LEAST(s."first_seen_at", u."detected_at")), u."detected_at", i."detected_at" IS NOT NULL
  FROM "change_records" u
  JOIN "apps" a ON a."slug" = u."subject"
  JOIN "stores" s ON s."id" = u."store_id"
  LEFT JOIN LATERAL (
    SELECT c."detected_at" FROM "change_records" c
     WHERE c."store_id" = u."store_id" AND c."subject" = u."subject" AND c."entity" = 'app'
       AND c."change_type" = 'app_installed' AND c."detected_at" <= u."detected_at"
     ORDER BY c."detected_at" DESC LIMIT 1) i ON true
 WHERE u."entity" = 'app' AND u."change_type" = 'app_uninstalled';
