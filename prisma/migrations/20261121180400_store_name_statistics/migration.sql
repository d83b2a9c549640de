-- The store search tells a common word from a brand by PostgreSQL's estimate of its matches
-- (src/stores/store-search.sql.ts, src/stores/row-estimate.ts). With the default 100-name sample a
-- word on 1 to 5% of the stores ("apparel", "coffee") is estimated anywhere from 200 rows to tens of
-- thousands depending on the last ANALYZE's sample; 300 names resolve a third of a percent for
-- about 0.7 ms more planning per search statement.
ALTER TABLE "stores" ALTER COLUMN "name" SET STATISTICS 300;
ALTER TABLE "stores" ALTER COLUMN "domain" SET STATISTICS 300;
ANALYZE "stores" ("name", "domain");
