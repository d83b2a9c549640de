// The exact totals that cost nothing: store_filter_counts (see its migration) holds the number of
// listed stores of every filter made of the dimensions the rollups count, kept exact by triggers as
// observations change the catalog. A list whose filter is one of them reads its total from one row
// instead of counting its matches (capped at EXACT_COUNT_LIMIT and estimated past it).
import type { SqlParams } from '../../platform/database/sql.ts';
import type { ResolvedStoreFilter } from '../store-filter.ts';

/** Dimensions that pair with one another and with an app, in the order of their names (as the keys hold them). */
const PAIRED = ['category', 'country', 'dropshipper', 'industry', 'vertical'] as const;
type Paired = (typeof PAIRED)[number];

/** The filter fields store_filter_counts can answer; any other field set means counting. */
const COUNTED_FIELDS = new Set([
  'vertical',
  'industry',
  'category',
  'countryCode',
  'isDropshipper',
  'theme',
  'tld',
  'app',
]);

/** Human summary of the filters with exact totals, for the documentation. */
export const EXACT_TOTAL_FILTERS =
  'none at all; any one of vertical, countryCode, industry, category, isDropshipper, theme, tld or app (a single app); ' +
  'any two of vertical, countryCode, industry, category and isDropshipper; or a single app with one of those five';

const isSet = (value: unknown) =>
  value != null && value !== '' && !(Array.isArray(value) && value.length === 0);

/**
 * The SQL expression of the store_filter_counts key of `filter` (its values as parameters, cased as
 * the filter conditions compare them), or null when the filter is not one the counts hold.
 */
export function filterCountKey(
  filter: ResolvedStoreFilter | null | undefined,
  params: SqlParams,
): string | null {
  const parts: Partial<Record<Paired, string>> = {};
  let single: string | null = null;
  let app: string | null = null;
  if (filter) {
    for (const [field, value] of Object.entries(filter)) {
      if (field === 'appIds' || field === 'textMatch') continue;
      if (isSet(value) && !COUNTED_FIELDS.has(field)) return null;
    }
    if (filter.vertical)
      parts.vertical = `'vertical=' || lower(${params.add(filter.vertical)}::text)`;
    if (filter.industry)
      parts.industry = `'industry=' || lower(${params.add(filter.industry)}::text)`;
    if (filter.category)
      parts.category = `'category=' || lower(${params.add(filter.category)}::text)`;
    if (filter.countryCode)
      parts.country = `'country=' || ${params.add(filter.countryCode.toUpperCase())}::text`;
    if (filter.isDropshipper != null)
      parts.dropshipper = `'dropshipper=' || ${params.add(filter.isDropshipper)}::boolean::text`;
    if (filter.theme) single = `'theme=' || lower(${params.add(filter.theme)}::text)`;
    if (filter.tld) {
      if (single) return null;
      single = `'tld=' || ${params.add(filter.tld.toLowerCase().replace(/^\./, ''))}::text`;
    }
    if (filter.app?.length) {
      const ids = filter.appIds;
      // an app the catalog lacks matches nothing: the live count says 0 at no cost
      if (!ids || ids.impossible || ids.all.length !== 1) return null;
      app = `'app=' || ${params.add(ids.all[0])}::int::text`;
    }
  }
  const paired = PAIRED.flatMap((name) => parts[name] ?? []);
  if (single) return paired.length === 0 && !app ? single : null;
  if (app) return paired.length <= 1 ? join([app, ...paired]) : null;
  if (paired.length > 2) return null;
  return paired.length === 0 ? `''` : join(paired);
}

const join = (parts: readonly string[]) =>
  parts.length === 1 ? `(${parts[0]})` : `concat_ws(chr(31), ${parts.join(', ')})`;

/** A scalar subquery: the exact number of listed stores under `key` (0 when no store ever counted there). */
export const filterCountSql = (key: string): string =>
  `coalesce((SELECT c.stores FROM store_filter_counts c WHERE c.key = ${key}), 0)`;
