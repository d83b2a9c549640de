// PostgreSQL's own estimate of a search's matches, and the totals of fuzzy (q) searches built on it.
// Counting even 10,001 trigram matches means fetching and rechecking 10,001 rows (a title or name
// match is lossy in the index): 100 ms to seconds for a common word over 10M products or 1M stores.
// The planner's estimate for the same condition comes from the column statistics in well under a
// millisecond, so a q search it already estimates past EXACT_COUNT_LIMIT is not counted at all.
import { countUpTo, EXACT_COUNT_LIMIT, estimatedRows, type Queryable } from '../platform/database/sql.ts';

/** Estimated rows of `SELECT 1 FROM <fromWhere>` (EXPLAIN, nothing executed; kept a minute per filter). */
export const estimateRows = estimatedRows;

/** A search PostgreSQL estimates at more matches than this is broad. */
export const BROAD_SEARCH_ROWS = EXACT_COUNT_LIMIT;

/** countUpTo for fuzzy searches: a broad one reports the estimate (inexact) without counting. */
export async function countFuzzyMatches(
  pool: Queryable,
  fromWhere: string,
  values: readonly unknown[],
  excluded?: string,
): Promise<{ total: number; exact: boolean }> {
  const estimate = await estimateRows(pool, fromWhere, values);
  if (estimate > BROAD_SEARCH_ROWS) return { total: estimate, exact: false };
  return countUpTo(pool, fromWhere, values, excluded);
}
