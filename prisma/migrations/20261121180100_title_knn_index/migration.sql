-- Product title search ordered nearest first (src/products/product-search.sql.ts): a GiST trigram
-- index serves ORDER BY lower(q) <<-> lower(title) as a KNN scan, so a common word's first page
-- is read off the index instead of ranking its hundreds of thousands of matches (36 s at 10M
-- products before). It is on lower(title), not title, so the planner never picks it for the
-- WHERE filter (a bitmap scan of a GiST trigram index reads most of it; the GIN index on title
-- answers a rare word in milliseconds). Building it over 10M titles takes about 8 minutes on two
-- cores; the seeder rebuilds it after each bulk load like every other index.
CREATE INDEX IF NOT EXISTS "products_title_knn_idx" ON "products" USING GIST (lower("title") gist_trgm_ops);
