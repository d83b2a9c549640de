-- Exact store counts of the list filters the rollups hold (src/stores/rollups/store-filter-counts.ts):
-- the whole catalog, each value of vertical, country, industry, category, dropshipper, theme, tld and
-- app, each pair of vertical, country, industry, category and dropshipper, and each app with one of
-- those. page.total (GraphQL totalCount) of such a filter reads one row here instead of counting.
-- Listed stores only (src/stores/listed-stores.ts), as the lists. Kept by the database itself,
-- whoever writes stores, their apps or their presence: one upsert of summed changes per writing
-- statement, in the writer's transaction, so a count is exact in every snapshot.
-- A key is its parts "name=value" in the order of their names, joined by chr(31): "" (every store),
-- "vertical=fashion", "country=US<31>vertical=fashion", "app=12<31>country=US". Values as the filters
-- compare them: vertical, industry, category and theme lower-cased, the country and the domain as
-- stored, an app by its id; a tld is each dot-ended suffix of the domain ("a.shop.example" counts
-- under shop.example and example).
CREATE TABLE "store_filter_counts" (
    "key" TEXT COLLATE "C" NOT NULL,
    "stores" INTEGER NOT NULL,
    CONSTRAINT "store_filter_counts_pkey" PRIMARY KEY ("key")
);

-- the values that pair, in the order of their names; unknown ones left out
CREATE OR REPLACE FUNCTION "store_filter_parts"(country_code text, vertical text, industry text, category text, is_dropshipper boolean)
RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_remove(ARRAY['category=' || lower(category), 'country=' || country_code,
                            'dropshipper=' || is_dropshipper::text, 'industry=' || lower(industry),
                            'vertical=' || lower(vertical)], NULL)
$$;

-- the keys a store counts under, but its apps'
CREATE OR REPLACE FUNCTION "store_filter_keys"(country_code text, vertical text, industry text, category text,
  is_dropshipper boolean, theme_name text, domain text)
RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY['']
      || p
      || ARRAY(SELECT p[i] || chr(31) || p[j] FROM generate_subscripts(p, 1) i, generate_subscripts(p, 1) j WHERE i < j)
      || array_remove(ARRAY['theme=' || lower(theme_name)], NULL)
      || ARRAY(SELECT 'tld=' || substr(domain, k + 1) FROM generate_series(1, length(domain)) k WHERE substr(domain, k, 1) = '.')
    FROM (SELECT store_filter_parts(country_code, vertical, industry, category, is_dropshipper) AS p) parts
$$;

-- the keys a store counts under for one app it runs
CREATE OR REPLACE FUNCTION "store_filter_app_keys"(app_id integer, country_code text, vertical text, industry text,
  category text, is_dropshipper boolean)
RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY['app=' || app_id]
      || ARRAY(SELECT 'app=' || app_id || chr(31) || part
                 FROM unnest(store_filter_parts(country_code, vertical, industry, category, is_dropshipper)) part)
$$;

-- Adds sign (+1 or -1) for each given store under all its keys, its apps' included. The caller
-- passes listed stores only. Keys in a fixed order, so two writers lock shared rows in the same order.
CREATE OR REPLACE FUNCTION "store_filter_counts_add_stores"(ids integer[], signs integer[], country_codes text[],
  verticals text[], industries text[], categories text[], dropshippers boolean[], themes text[], domains text[])
RETURNS void LANGUAGE sql AS $$
  INSERT INTO store_filter_counts (key, stores)
  SELECT key, sum(sign)::int FROM (
    SELECT unnest(store_filter_keys(c.country_code, c.vertical, c.industry, c.category, c.dropshipper, c.theme, c.domain)) AS key, c.sign
      FROM unnest(ids, signs, country_codes, verticals, industries, categories, dropshippers, themes, domains)
           c(id, sign, country_code, vertical, industry, category, dropshipper, theme, domain)
    UNION ALL
    SELECT unnest(store_filter_app_keys(sa.app_id, c.country_code, c.vertical, c.industry, c.category, c.dropshipper)), c.sign
      FROM unnest(ids, signs, country_codes, verticals, industries, categories, dropshippers, themes, domains)
           c(id, sign, country_code, vertical, industry, category, dropshipper, theme, domain)
      JOIN store_apps sa ON sa.store_id = c.id
  ) k GROUP BY key HAVING sum(sign) <> 0 ORDER BY key
  ON CONFLICT (key) DO UPDATE SET stores = store_filter_counts.stores + EXCLUDED.stores
$$;

-- Adds sign for each (store, app) under the app's keys, for listed stores that exist.
CREATE OR REPLACE FUNCTION "store_filter_counts_add_apps"(store_ids integer[], app_ids integer[], signs integer[])
RETURNS void LANGUAGE sql AS $$
  INSERT INTO store_filter_counts (key, stores)
  SELECT key, sum(sign)::int FROM (
    SELECT unnest(store_filter_app_keys(c.app_id, s.country_code::text, s.vertical, s.industry, s.category, s.is_dropshipper)) AS key, c.sign
      FROM unnest(store_ids, app_ids, signs) c(store_id, app_id, sign)
      JOIN stores s ON s.id = c.store_id
     WHERE NOT EXISTS (SELECT 1 FROM observation_schedule v WHERE v.store_id = s.id AND v.presence = 'vanished')
  ) k GROUP BY key HAVING sum(sign) <> 0 ORDER BY key
  ON CONFLICT (key) DO UPDATE SET stores = store_filter_counts.stores + EXCLUDED.stores
$$;

-- stores: a new store counts, a changed one moves from its old keys to its new ones
CREATE OR REPLACE FUNCTION "store_filter_counts_stores"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM store_filter_counts_add_stores(array_agg(n.id), array_agg(1), array_agg(n.country_code::text), array_agg(n.vertical),
        array_agg(n.industry), array_agg(n.category), array_agg(n.is_dropshipper), array_agg(n.theme_name), array_agg(n.domain))
      FROM new_stores n
     WHERE NOT EXISTS (SELECT 1 FROM observation_schedule v WHERE v.store_id = n.id AND v.presence = 'vanished')
    HAVING count(*) > 0;
  ELSE
    PERFORM store_filter_counts_add_stores(array_agg(c.id), array_agg(c.sign), array_agg(c.country_code), array_agg(c.vertical),
        array_agg(c.industry), array_agg(c.category), array_agg(c.is_dropshipper), array_agg(c.theme_name), array_agg(c.domain))
      FROM (
        SELECT o.id, -1 AS sign, o.country_code::text AS country_code, o.vertical, o.industry, o.category, o.is_dropshipper, o.theme_name, o.domain
          FROM old_stores o JOIN new_stores n USING (id)
         WHERE (o.country_code, o.vertical, o.industry, o.category, o.is_dropshipper, o.theme_name, o.domain)
               IS DISTINCT FROM (n.country_code, n.vertical, n.industry, n.category, n.is_dropshipper, n.theme_name, n.domain)
        UNION ALL
        SELECT n.id, 1, n.country_code::text, n.vertical, n.industry, n.category, n.is_dropshipper, n.theme_name, n.domain
          FROM old_stores o JOIN new_stores n USING (id)
         WHERE (o.country_code, o.vertical, o.industry, o.category, o.is_dropshipper, o.theme_name, o.domain)
               IS DISTINCT FROM (n.country_code, n.vertical, n.industry, n.category, n.is_dropshipper, n.theme_name, n.domain)
      ) c
     WHERE NOT EXISTS (SELECT 1 FROM observation_schedule v WHERE v.store_id = c.id AND v.presence = 'vanished')
    HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "stores_filter_counts_insert" AFTER INSERT ON "stores"
  REFERENCING NEW TABLE AS new_stores FOR EACH STATEMENT EXECUTE FUNCTION "store_filter_counts_stores"();
CREATE TRIGGER "stores_filter_counts_update" AFTER UPDATE ON "stores"
  REFERENCING OLD TABLE AS old_stores NEW TABLE AS new_stores FOR EACH STATEMENT EXECUTE FUNCTION "store_filter_counts_stores"();

-- a store deleted: before the row goes, while its apps are still there (their rows go by cascade,
-- and store_apps' trigger finds no store for them)
CREATE OR REPLACE FUNCTION "store_filter_counts_store_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM observation_schedule v WHERE v.store_id = OLD.id AND v.presence = 'vanished') THEN
    PERFORM store_filter_counts_add_stores(ARRAY[OLD.id], ARRAY[-1], ARRAY[OLD.country_code::text], ARRAY[OLD.vertical],
      ARRAY[OLD.industry], ARRAY[OLD.category], ARRAY[OLD.is_dropshipper], ARRAY[OLD.theme_name], ARRAY[OLD.domain]);
  END IF;
  RETURN OLD;
END $$;
CREATE TRIGGER "stores_filter_counts_delete" BEFORE DELETE ON "stores"
  FOR EACH ROW EXECUTE FUNCTION "store_filter_counts_store_delete"();

CREATE OR REPLACE FUNCTION "store_filter_counts_clear"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'store_apps' THEN
    DELETE FROM store_filter_counts WHERE key LIKE 'app=%';
  ELSE
    DELETE FROM store_filter_counts;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "stores_filter_counts_truncate" AFTER TRUNCATE ON "stores"
  FOR EACH STATEMENT EXECUTE FUNCTION "store_filter_counts_clear"();

-- store_apps: an app installed or dropped
CREATE OR REPLACE FUNCTION "store_filter_counts_store_apps"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM store_filter_counts_add_apps(array_agg(n.store_id), array_agg(n.app_id), array_agg(1))
      FROM new_apps n HAVING count(*) > 0;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM store_filter_counts_add_apps(array_agg(o.store_id), array_agg(o.app_id), array_agg(-1))
      FROM old_apps o HAVING count(*) > 0;
  ELSE
    PERFORM store_filter_counts_add_apps(array_agg(c.store_id), array_agg(c.app_id), array_agg(c.sign))
      FROM (
        SELECT o.store_id, o.app_id, -1 AS sign FROM old_apps o
         WHERE NOT EXISTS (SELECT 1 FROM new_apps n WHERE n.store_id = o.store_id AND n.app_id = o.app_id)
        UNION ALL
        SELECT n.store_id, n.app_id, 1 FROM new_apps n
         WHERE NOT EXISTS (SELECT 1 FROM old_apps o WHERE o.store_id = n.store_id AND o.app_id = n.app_id)
      ) c
    HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "store_apps_filter_counts_insert" AFTER INSERT ON "store_apps"
  REFERENCING NEW TABLE AS new_apps FOR EACH STATEMENT EXECUTE FUNCTION "store_filter_counts_store_apps"();
CREATE TRIGGER "store_apps_filter_counts_update" AFTER UPDATE ON "store_apps"
  REFERENCING OLD TABLE AS old_apps NEW TABLE AS new_apps FOR EACH STATEMENT EXECUTE FUNCTION "store_filter_counts_store_apps"();
CREATE TRIGGER "store_apps_filter_counts_delete" AFTER DELETE ON "store_apps"
  REFERENCING OLD TABLE AS old_apps FOR EACH STATEMENT EXECUTE FUNCTION "store_filter_counts_store_apps"();
CREATE TRIGGER "store_apps_filter_counts_truncate" AFTER TRUNCATE ON "store_apps"
  FOR EACH STATEMENT EXECUTE FUNCTION "store_filter_counts_clear"();

-- observation_schedule: a store found vanished leaves every count, one back returns to them
CREATE OR REPLACE FUNCTION "store_filter_counts_presence"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  was integer[] := '{}';
  now_vanished integer[] := '{}';
BEGIN
  IF TG_OP <> 'INSERT' THEN
    SELECT coalesce(array_agg(o.store_id), '{}') INTO was FROM old_schedule o WHERE o.presence = 'vanished';
  END IF;
  IF TG_OP <> 'DELETE' THEN
    SELECT coalesce(array_agg(n.store_id), '{}') INTO now_vanished FROM new_schedule n WHERE n.presence = 'vanished';
  END IF;
  IF was = now_vanished THEN
    RETURN NULL;
  END IF;
  PERFORM store_filter_counts_add_stores(array_agg(s.id), array_agg(c.sign), array_agg(s.country_code::text), array_agg(s.vertical),
      array_agg(s.industry), array_agg(s.category), array_agg(s.is_dropshipper), array_agg(s.theme_name), array_agg(s.domain))
    FROM (
      SELECT id, -1 AS sign FROM unnest(now_vanished) id WHERE NOT id = ANY (was)
      UNION ALL
      SELECT id, 1 FROM unnest(was) id WHERE NOT id = ANY (now_vanished)
    ) c JOIN stores s ON s.id = c.id
  HAVING count(*) > 0;
  RETURN NULL;
END $$;
CREATE TRIGGER "observation_schedule_filter_counts_insert" AFTER INSERT ON "observation_schedule"
  REFERENCING NEW TABLE AS new_schedule FOR EACH STATEMENT EXECUTE FUNCTION "store_filter_counts_presence"();
CREATE TRIGGER "observation_schedule_filter_counts_update" AFTER UPDATE ON "observation_schedule"
  REFERENCING OLD TABLE AS old_schedule NEW TABLE AS new_schedule FOR EACH STATEMENT EXECUTE FUNCTION "store_filter_counts_presence"();
CREATE TRIGGER "observation_schedule_filter_counts_delete" AFTER DELETE ON "observation_schedule"
  REFERENCING OLD TABLE AS old_schedule FOR EACH STATEMENT EXECUTE FUNCTION "store_filter_counts_presence"();

-- an existing catalog's counts
INSERT INTO "store_filter_counts" ("key", "stores")
SELECT key, count(*)::int FROM (
  SELECT unnest(store_filter_keys(s.country_code::text, s.vertical, s.industry, s.category, s.is_dropshipper, s.theme_name, s.domain)) AS key
    FROM stores s
   WHERE NOT EXISTS (SELECT 1 FROM observation_schedule v WHERE v.store_id = s.id AND v.presence = 'vanished')
  UNION ALL
  SELECT unnest(store_filter_app_keys(sa.app_id, s.country_code::text, s.vertical, s.industry, s.category, s.is_dropshipper))
    FROM store_apps sa JOIN stores s ON s.id = sa.store_id
   WHERE NOT EXISTS (SELECT 1 FROM observation_schedule v WHERE v.store_id = s.id AND v.presence = 'vanished')
) k GROUP BY key;
ANALYZE "store_filter_counts";
