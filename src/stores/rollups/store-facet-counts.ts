// Store counts per value of each store filter (the facets of GET /v1/stores/facets), over the
// stores a WHERE clause keeps: one scan with a grouping set per facet, plus the app installs of
// the same stores. Over the whole catalog they are recomputed with the rollups (store-rollups.ts)
// into store_facet_counts; with a filter the facets route runs the same statement live.
import type { Queryable } from '../../platform/database/sql.ts';

export const FACETS = [
  'vertical',
  'industry',
  'category',
  'countryCode',
  'theme',
  'tld',
  'app',
] as const;
export type Facet = (typeof FACETS)[number];

/**
 * A store's value of each facet but app, over `stores s`. tld is the domain without its first
 * label (quietlab.store.example → store.example, brand.co.uk → co.uk); the tld filter matches any
 * dot-ended suffix of it, so the facets add each value's count to its shorter suffixes too.
 */
const COLUMN: Record<Exclude<Facet, 'app'>, string> = {
  vertical: 's.vertical',
  industry: 's.industry',
  category: 's.category',
  countryCode: 's.country_code::text',
  theme: 's.theme_name',
  tld: `substr(s.domain, strpos(s.domain, '.') + 1)`,
};
const SCALAR_FACETS = Object.keys(COLUMN) as Array<Exclude<Facet, 'app'>>;

export interface FacetCount {
  /** '' for the number of stores itself */
  facet: Facet | '';
  value: string;
  stores: number;
}

/** (facet, value, stores) of the stores `FROM stores s <where>` keeps, and one row ('', '', n) with their number. */
export function facetCountsSql(where: string): string {
  const label = `CASE ${SCALAR_FACETS.map((f) => `WHEN GROUPING(${f}_value) = 0 THEN '${f}'`).join(' ')} ELSE '' END`;
  const value = `coalesce(${SCALAR_FACETS.map((f) => `${f}_value`).join(', ')}, '')`;
  return `WITH matched AS MATERIALIZED (
      SELECT s.id, ${SCALAR_FACETS.map((f) => `${COLUMN[f]} AS ${f}_value`).join(', ')} FROM stores s ${where}
    )
    SELECT * FROM (
      SELECT ${label} AS facet, ${value} AS value, count(*)::int AS stores FROM matched
       GROUP BY GROUPING SETS ((), ${SCALAR_FACETS.map((f) => `(${f}_value)`).join(', ')})
    ) scalar WHERE facet = '' OR value <> ''
    UNION ALL
    SELECT 'app', a.slug, count(*)::int FROM matched m JOIN store_apps sa ON sa.store_id = m.id JOIN apps a ON a.id = sa.app_id
     GROUP BY a.slug`;
}

/** Recomputes store_facet_counts over the listed stores, inside the rollups' transaction. */
export async function buildStoreFacetCounts(client: Queryable, listed: string): Promise<number> {
  await client.query('DELETE FROM store_facet_counts');
  const inserted = await client.query(
    `INSERT INTO store_facet_counts (facet, value, stores) ${facetCountsSql(`WHERE ${listed}`)}`,
  );
  return inserted.rowCount ?? 0;
}
