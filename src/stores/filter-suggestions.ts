// A filter value the catalog does not have ("Apparel" where the catalog says "Apparel &
// Accessories") matches no store; the empty answer then says so and names the nearest valid
// values, so that an agent can tell a typo from no data. Valid values are the whole catalog's
// facet values (store_facet_counts) and app slugs, kept per pool for a minute: a search with only
// valid values costs no statement; an unknown one costs one, for its nearest values by trigrams.
import { queryRows, type Queryable } from '../platform/database/sql.ts';
import type { Facet } from './rollups/store-facet-counts.ts';
import type { ResolvedStoreFilter } from './store-filter.ts';

export interface FilterSuggestion {
  /** the filter parameter: vertical, industry, category, countryCode, theme, tld, app, anyApp, notApp, installedApp or uninstalledApp */
  parameter: string;
  /** the value given, which no store of the catalog has */
  value: string;
  /** the catalog's nearest values, closest first (at most MAX_SUGGESTIONS; empty when none is near) */
  nearest: string[];
}

const MAX_SUGGESTIONS = 3;
/** how long the valid values are trusted before they are read again */
const VALID_VALUES_TTL_MS = 60_000;

interface ValidValues {
  readAt: number;
  /** lower-cased values by facet (tld: every dot-ended suffix) */
  byFacet: Map<Facet, Set<string>>;
}

const cache = new WeakMap<Queryable, ValidValues>();

async function validValues(pool: Queryable): Promise<ValidValues> {
  const cached = cache.get(pool);
  if (cached && Date.now() - cached.readAt < VALID_VALUES_TTL_MS) return cached;
  const rows = await queryRows<{ facet: Facet; value: string }>(
    pool,
    `SELECT facet, value FROM store_facet_counts WHERE facet <> ''`,
  );
  const byFacet = new Map<Facet, Set<string>>();
  for (const { facet, value } of rows) {
    const values = byFacet.get(facet) ?? new Set<string>();
    const lower = value.toLowerCase();
    if (facet === 'tld') {
      const labels = lower.split('.');
      for (let i = 0; i < labels.length; i += 1) values.add(labels.slice(i).join('.'));
    } else values.add(lower);
    byFacet.set(facet, values);
  }
  const read = { readAt: Date.now(), byFacet };
  cache.set(pool, read);
  return read;
}

/** The filter's values of each facet, as (parameter, facet, value). */
function givenValues(
  filter: ResolvedStoreFilter,
): Array<{ parameter: string; facet: Facet; value: string }> {
  const given: Array<{ parameter: string; facet: Facet; value: string }> = [];
  const scalar = {
    vertical: 'vertical',
    industry: 'industry',
    category: 'category',
    countryCode: 'countryCode',
    theme: 'theme',
    tld: 'tld',
  } as const;
  for (const [parameter, facet] of Object.entries(scalar)) {
    const value = filter[parameter as keyof typeof scalar];
    if (value)
      given.push({ parameter, facet, value: facet === 'tld' ? value.replace(/^\./, '') : value });
  }
  const unknownSlugs = new Set(filter.appIds?.unknownSlugs ?? []);
  for (const parameter of ['app', 'anyApp', 'notApp'] as const) {
    for (const slug of filter[parameter] ?? [])
      if (unknownSlugs.has(slug)) given.push({ parameter, facet: 'app', value: slug });
  }
  for (const parameter of ['installedApp', 'uninstalledApp'] as const) {
    const slug = filter[parameter];
    if (slug != null && unknownSlugs.has(slug))
      given.push({ parameter, facet: 'app', value: slug });
  }
  return given;
}

/**
 * The filter's values that no store of the catalog has, each with its nearest valid values. App
 * slugs are checked against the apps table (resolveStoreFilter did); the other values against the
 * catalog's facet values. Before the first facet counts exist nothing is judged unknown.
 */
export async function filterSuggestions(
  pool: Queryable,
  filter: ResolvedStoreFilter | null | undefined,
): Promise<FilterSuggestion[]> {
  if (!filter) return [];
  const given = givenValues(filter);
  if (given.length === 0) return [];
  const valid = await validValues(pool);
  const unknown = given.filter(
    ({ facet, value }) =>
      facet === 'app' ||
      (valid.byFacet.size > 0 && !valid.byFacet.get(facet)?.has(value.toLowerCase())),
  );
  if (unknown.length === 0) return [];
  const rows = await queryRows<{ i: number; nearest: string[] }>(
    pool,
    `SELECT u.i, ARRAY(
        SELECT candidate.value FROM (
          SELECT a.slug AS value, greatest(word_similarity(u.value, a.slug), word_similarity(u.value, a.name), similarity(u.value, a.slug)) AS closeness,
                 a.install_count AS stores
            FROM apps a WHERE u.facet = 'app'
          UNION ALL
          SELECT f.value, greatest(word_similarity(u.value, f.value), similarity(u.value, f.value)), f.stores
            FROM store_facet_counts f WHERE f.facet = u.facet AND u.facet <> 'app'
        ) candidate
        WHERE candidate.closeness > 0.2
        ORDER BY candidate.closeness DESC, candidate.stores DESC, candidate.value LIMIT ${MAX_SUGGESTIONS}
      ) AS nearest
      FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u (facet, value, i)`,
    [unknown.map((u) => u.facet), unknown.map((u) => u.value)],
  );
  const nearest = new Map(rows.map((row) => [Number(row.i), row.nearest]));
  return unknown.map(({ parameter, value }, i) => ({
    parameter,
    value,
    nearest: nearest.get(i + 1) ?? [],
  }));
}
