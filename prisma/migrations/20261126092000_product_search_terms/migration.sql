-- Product title search on the same engine as the store search (src/search/, src/products/
-- product-search.sql.ts): the words of each title in a stored column with a GIN index, a covering
-- index in id order for walks, and the vocabulary of title words with the number of products
-- holding each. It replaces the trigram indexes on title, whose plans (a GiST KNN scan for common
-- words, a GIN bitmap for rare ones, chosen by the planner's estimate) took 0.3 to 1.5 s for many
-- words at 10M products; they are dropped first so that the table's rewrite does not rebuild them.
DROP INDEX IF EXISTS "products_title_knn_idx";
DROP INDEX IF EXISTS "products_title_trgm_idx";
-- the larger sample served the trigram plans' estimates; search_terms has its own below
ALTER TABLE "products" ALTER COLUMN "title" SET STATISTICS -1;

ALTER TABLE "products" ADD COLUMN "search_terms" text[] GENERATED ALWAYS AS ("search_terms"("title")) STORED;
CREATE INDEX IF NOT EXISTS "products_search_terms_idx" ON "products" USING GIN ("search_terms");
CREATE INDEX IF NOT EXISTS "products_id_search_terms_idx" ON "products" ("id") INCLUDE ("search_terms");
ALTER TABLE "products" ALTER COLUMN "search_terms" SET STATISTICS 1000;

CREATE TABLE "product_search_vocabulary" (
    "term" TEXT COLLATE "C" NOT NULL,
    "products" INTEGER NOT NULL,
    CONSTRAINT "product_search_vocabulary_pkey" PRIMARY KEY ("term")
);
INSERT INTO "product_search_vocabulary" ("term", "products")
  SELECT term, count(*)::int FROM "products", unnest("search_terms") AS term GROUP BY term;
CREATE INDEX "product_search_vocabulary_term_trgm_idx" ON "product_search_vocabulary" USING GIST ("term" gist_trgm_ops);

-- Kept by the database, as the store vocabulary is (see the store search migration).
CREATE OR REPLACE FUNCTION "product_search_vocabulary_count"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO product_search_vocabulary (term, products)
      SELECT term, count(*)::int FROM new_products, unnest(search_terms) AS term GROUP BY term ORDER BY term
      ON CONFLICT (term) DO UPDATE SET products = product_search_vocabulary.products + EXCLUDED.products;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE product_search_vocabulary v SET products = greatest(v.products - d.n, 0)
      FROM (SELECT term, count(*)::int AS n FROM old_products, unnest(search_terms) AS term GROUP BY term) d
     WHERE v.term = d.term;
  ELSE
    INSERT INTO product_search_vocabulary (term, products)
      SELECT term, sum(n)::int FROM (
        SELECT term, 1 AS n FROM new_products n JOIN old_products o USING (id), unnest(n.search_terms) AS term
         WHERE n.search_terms IS DISTINCT FROM o.search_terms
        UNION ALL
        SELECT term, -1 FROM new_products n JOIN old_products o USING (id), unnest(o.search_terms) AS term
         WHERE n.search_terms IS DISTINCT FROM o.search_terms
      ) changed GROUP BY term HAVING sum(n) <> 0 ORDER BY term
      ON CONFLICT (term) DO UPDATE SET products = greatest(product_search_vocabulary.products + EXCLUDED.products, 0);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "products_search_vocabulary_insert" AFTER INSERT ON "products"
  REFERENCING NEW TABLE AS new_products FOR EACH STATEMENT EXECUTE FUNCTION "product_search_vocabulary_count"();
CREATE TRIGGER "products_search_vocabulary_update" AFTER UPDATE ON "products"
  REFERENCING OLD TABLE AS old_products NEW TABLE AS new_products FOR EACH STATEMENT EXECUTE FUNCTION "product_search_vocabulary_count"();
CREATE TRIGGER "products_search_vocabulary_delete" AFTER DELETE ON "products"
  REFERENCING OLD TABLE AS old_products FOR EACH STATEMENT EXECUTE FUNCTION "product_search_vocabulary_count"();
CREATE OR REPLACE FUNCTION "product_search_vocabulary_clear"() RETURNS trigger
LANGUAGE plpgsql AS $$ BEGIN DELETE FROM product_search_vocabulary; RETURN NULL; END $$;
CREATE TRIGGER "products_search_vocabulary_truncate" AFTER TRUNCATE ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION "product_search_vocabulary_clear"();

ANALYZE "products";
ANALYZE "product_search_vocabulary";
