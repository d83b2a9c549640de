-- The planner decides between the title search's two plans by its estimate of the matches: a
-- common word is read nearest first off the GiST index (KNN, stops after a page), a rare one is
-- filtered with the GIN index and ranked. With the default statistics (a 100-title sample
-- histogram) a word on fewer than about 1% of 10M titles is estimated at a few hundred rows, so
-- words with 20,000 to 100,000 matches got the rank-everything plan (0.3 to 4 s) and were counted
-- row by row. A 1,000-title histogram resolves 0.1%; it costs about 2 ms more planning per title
-- search statement. The count's estimate (src/stores/row-estimate.ts) reads the same statistics.
ALTER TABLE "products" ALTER COLUMN "title" SET STATISTICS 1000;
ANALYZE "products" ("title");
