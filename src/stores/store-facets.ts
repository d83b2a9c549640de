// The facets of the store filters: each filter's values among the stores a filter keeps, with
// their store counts, most stores first. Without a filter they come from store_facet_counts (the
// whole catalog, recomputed with the rollups) while it is fresh; with one, live.
import { queryRows, SqlParams, type Queryable } from '../platform/database/sql.ts';
import {
  FACETS,
  facetCountsSql,
  type Facet,
  type FacetCount,
} from './rollups/store-facet-counts.ts';
import { FRESH_ROLLUPS } from './rollups/store-rollups.ts';
import { storeFilterConditions, whereClause, type ResolvedStoreFilter } from './store-filter.ts';

/** values per facet: the default and the most a caller may ask for (the catalog has about 140 categories) */
export const DEFAULT_FACET_VALUES = 50;
export const MAX_FACET_VALUES = 200;

export interface FacetValue {
  value: string;
  stores: number;
}

export interface StoreFacets {
  /** stores the filter keeps */
  stores: number;
  facets: Record<Facet, FacetValue[]>;
  /** false when the counts come from the whole-catalog facets, which the rollups recompute every few minutes */
  live: boolean;
}

/** Each tld value's count added to its shorter dot-ended suffixes ("store.example" → "example" too). */
function withSuffixes(values: readonly FacetValue[]): FacetValue[] {
  const totals = new Map<string, number>();
  for (const { value, stores } of values) {
    const labels = value.split('.');
    for (let i = 0; i < labels.length; i++) {
      const suffix = labels.slice(i).join('.');
      totals.set(suffix, (totals.get(suffix) ?? 0) + stores);
    }
  }
  return [...totals].map(([value, stores]) => ({ value, stores }));
}

function shape(rows: readonly FacetCount[], limit: number, live: boolean): StoreFacets {
  const facets = Object.fromEntries(FACETS.map((facet) => [facet, [] as FacetValue[]])) as Record<
    Facet,
    FacetValue[]
  >;
  let stores = 0;
  for (const row of rows) {
    if (row.facet === '') stores = row.stores;
    else facets[row.facet].push({ value: row.value, stores: row.stores });
  }
  facets.tld = withSuffixes(facets.tld);
  for (const facet of FACETS) {
    facets[facet] = facets[facet]
      .sort((a, b) => b.stores - a.stores || (a.value < b.value ? -1 : 1))
      .slice(0, limit);
  }
  return { stores, facets, live };
}

export async function storeFacets(
  pool: Queryable,
  filter: ResolvedStoreFilter | null | undefined,
  limit: number,
): Promise<StoreFacets> {
  if (storeFilterConditions(filter, new SqlParams(), false).length === 0) {
    const rows = await queryRows<FacetCount & { fresh: boolean }>(
      pool,
      `SELECT f.facet, f.value, f.stores, fresh.ok AS fresh FROM (SELECT ${FRESH_ROLLUPS} AS ok) fresh
         LEFT JOIN store_facet_counts f ON fresh.ok`,
    );
    if (rows[0]?.fresh && rows.some((row) => row.facet === '')) return shape(rows, limit, false);
  }
  const params = new SqlParams();
  const conditions = storeFilterConditions(filter, params);
  return shape(
    await queryRows<FacetCount>(pool, facetCountsSql(whereClause(conditions)), params.values),
    limit,
    true,
  );
}
