-- The store search's own index (src/search/, src/stores/store-search.sql.ts): the words of a
-- store's name and domain, and the vocabulary of every such word with the number of stores it
-- appears in. A search word is looked up in the small vocabulary first (exact, typed prefix,
-- within one or two edits, inside a longer word), and the stores holding the words found are read
-- off a GIN index; the vocabulary's counts tell a brand (a few dozen stores, all read and ranked)
-- from a common word (thousands, the most visited read in order of visits).

-- The words of a text: lower case, split at anything that is not a letter or digit and between
-- letters and digits ("Birchgarden2 Home" → {2, birchgarden, home}). src/search/search-words.ts
-- splits a query the same way.
CREATE OR REPLACE FUNCTION "search_terms"(text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT term ORDER BY term), '{}')
    FROM regexp_split_to_table(
           regexp_replace(regexp_replace(lower($1), '([[:alpha:]])(?=[[:digit:]])', '\1 ', 'g'),
                          '([[:digit:]])(?=[[:alpha:]])', '\1 ', 'g'),
           '[^[:alnum:]]+') AS term
   WHERE term <> ''
$$;

-- A store's words: its name and its domain without the last label (the TLD says nothing about
-- the brand: "birchgarden.shop.example" gives birchgarden and shop). Stored, so that walking the
-- most visited stores checks a column instead of splitting two strings per row (13 µs).
ALTER TABLE "stores" ADD COLUMN "search_terms" text[]
  GENERATED ALWAYS AS ("search_terms"("name" || ' ' || regexp_replace("domain", '\.[^.]*$', ''))) STORED;
CREATE INDEX IF NOT EXISTS "stores_search_terms_idx" ON "stores" USING GIN ("search_terms");
-- the planner's estimate of a word's stores decides between reading them all and walking by visits
ALTER TABLE "stores" ALTER COLUMN "search_terms" SET STATISTICS 1000;

-- exact name (lower(name) = lower(q)) and domain prefix (a domain without its TLD, typed as it starts)
CREATE INDEX IF NOT EXISTS "stores_lower_name_idx" ON "stores" (lower("name"));
CREATE INDEX IF NOT EXISTS "stores_domain_pattern_idx" ON "stores" ("domain" text_pattern_ops);

-- The vocabulary: every word of any store, with the number of stores holding it. C collation so
-- that a typed prefix is a range of the primary key; a trigram GiST index for the nearest words
-- (typos, KNN) and the longer words containing a search word.
CREATE TABLE "store_search_vocabulary" (
    "term" TEXT COLLATE "C" NOT NULL,
    "stores" INTEGER NOT NULL,
    CONSTRAINT "store_search_vocabulary_pkey" PRIMARY KEY ("term")
);
INSERT INTO "store_search_vocabulary" ("term", "stores")
  SELECT term, count(*)::int FROM "stores", unnest("search_terms") AS term GROUP BY term;
CREATE INDEX "store_search_vocabulary_term_trgm_idx" ON "store_search_vocabulary" USING GIST ("term" gist_trgm_ops);

-- Kept by the database itself, whoever writes stores (seeder, scrapes, discovery): one statement
-- of counted words per writing statement, through its transition tables. A word no store holds
-- any more stays with 0 stores (the search skips it) rather than being deleted under a reader.
CREATE OR REPLACE FUNCTION "store_search_vocabulary_count"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO store_search_vocabulary (term, stores)
      SELECT term, count(*)::int FROM new_stores, unnest(search_terms) AS term GROUP BY term ORDER BY term
      ON CONFLICT (term) DO UPDATE SET stores = store_search_vocabulary.stores + EXCLUDED.stores;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE store_search_vocabulary v SET stores = greatest(v.stores - d.n, 0)
      FROM (SELECT term, count(*)::int AS n FROM old_stores, unnest(search_terms) AS term GROUP BY term) d
     WHERE v.term = d.term;
  ELSE
    INSERT INTO store_search_vocabulary (term, stores)
      SELECT term, sum(n)::int FROM (
        SELECT term, 1 AS n FROM new_stores n JOIN old_stores o USING (id), unnest(n.search_terms) AS term
         WHERE n.search_terms IS DISTINCT FROM o.search_terms
        UNION ALL
        SELECT term, -1 FROM new_stores n JOIN old_stores o USING (id), unnest(o.search_terms) AS term
         WHERE n.search_terms IS DISTINCT FROM o.search_terms
      ) changed GROUP BY term HAVING sum(n) <> 0 ORDER BY term
      ON CONFLICT (term) DO UPDATE SET stores = greatest(store_search_vocabulary.stores + EXCLUDED.stores, 0);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "stores_search_vocabulary_insert" AFTER INSERT ON "stores"
  REFERENCING NEW TABLE AS new_stores FOR EACH STATEMENT EXECUTE FUNCTION "store_search_vocabulary_count"();
CREATE TRIGGER "stores_search_vocabulary_update" AFTER UPDATE ON "stores"
  REFERENCING OLD TABLE AS old_stores NEW TABLE AS new_stores FOR EACH STATEMENT EXECUTE FUNCTION "store_search_vocabulary_count"();
CREATE TRIGGER "stores_search_vocabulary_delete" AFTER DELETE ON "stores"
  REFERENCING OLD TABLE AS old_stores FOR EACH STATEMENT EXECUTE FUNCTION "store_search_vocabulary_count"();
CREATE OR REPLACE FUNCTION "store_search_vocabulary_clear"() RETURNS trigger
LANGUAGE plpgsql AS $$ BEGIN DELETE FROM store_search_vocabulary; RETURN NULL; END $$;
CREATE TRIGGER "stores_search_vocabulary_truncate" AFTER TRUNCATE ON "stores"
  FOR EACH STATEMENT EXECUTE FUNCTION "store_search_vocabulary_clear"();

ANALYZE "stores";
ANALYZE "store_search_vocabulary";
