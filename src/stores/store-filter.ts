// StoreFilter: the filters shared by the store search and the grouped rows, and their SQL.
import type { NumberValidationOptions, StringValidationOptions } from '@pothos/plugin-zod';
import { builder } from '../graphql/builder.ts';
import { type SqlParams } from '../graphql/sql.ts';
import { parseDomain } from './domain.ts';

export interface StoreFilterValues {
  q?: string | null;
  vertical?: string | null;
  industry?: string | null;
  category?: string | null;
  countryCode?: string | null;
  minVisits?: number | null;
  maxVisits?: number | null;
  minRevenue?: number | null;
  isDropshipper?: boolean | null;
}

const name: StringValidationOptions = { type: 'string', minLength: [1, { message: 'must not be empty' }], maxLength: 100 };
const count: NumberValidationOptions = { type: 'number', int: true, min: [0, { message: 'must not be negative' }] };

export const StoreFilter = builder.inputType('StoreFilter', {
  description: 'Filters of the store search and of grouped rows. All given filters must hold.',
  fields: (t) => ({
    q: t.string({
      description: 'Brand or domain, fuzzy (trigram) match; a URL is reduced to its domain.',
      validate: { type: 'string', minLength: [2, { message: 'must be at least 2 characters' }], maxLength: 200 },
    }),
    vertical: t.string({ description: 'Vertical name, case-insensitive.', validate: name }),
    industry: t.string({ description: 'Industry name, case-insensitive.', validate: name }),
    category: t.string({ description: 'Category name, case-insensitive.', validate: name }),
    countryCode: t.string({
      description: 'ISO 3166-1 alpha-2 country code, case-insensitive.',
      validate: { type: 'string', regex: [/^[A-Za-z]{2}$/, { message: 'must be a 2-letter ISO country code' }] },
    }),
    minVisits: t.int({ description: 'Modeled monthly visits at least this.', validate: count }),
    maxVisits: t.int({ description: 'Modeled monthly visits at most this.', validate: count }),
    minRevenue: t.int({ description: 'High end of the modeled monthly revenue band (USD) at least this.', validate: count }),
    isDropshipper: t.boolean({ description: 'Dropshipper classifier output.' }),
  }),
  validate: [
    (f) => f.minVisits == null || f.maxVisits == null || f.minVisits <= f.maxVisits,
    { message: 'must not be below minVisits', path: ['maxVisits'] },
  ],
});

/** The search text: a pasted URL or www. domain becomes the bare domain, anything else is trimmed. */
export function searchText(q: string): string {
  const asDomain = parseDomain(q);
  return asDomain.ok && /[./]/.test(q) ? asDomain.domain : q.trim();
}

/**
 * The WHERE conditions of a filter over `stores` aliased `s`. q matches a store when it is close to
 * a word or run of words of its name or domain (word similarity, <%, at pg_trgm's 0.6), served by
 * the trigram GIN indexes on name and domain. Whole-name similarity (%, 0.3) is not a match
 * condition: at a million stores it only adds look-alike brands ("Hazeorchard" for "blueorchard")
 * and costs a recheck of every name sharing a few trigrams (16,000 rows for one brand). Name
 * filters compare lower() on both sides, served by the expression indexes on lower(...).
 */
export function storeFilterConditions(filter: StoreFilterValues | null | undefined, params: SqlParams): string[] {
  const where: string[] = [];
  if (!filter) return where;
  if (filter.q) {
    const q = params.add(searchText(filter.q));
    where.push(`(${q} <% s.name OR ${q} <% s.domain)`);
  }
  if (filter.vertical) where.push(`lower(s.vertical) = lower(${params.add(filter.vertical)})`);
  if (filter.industry) where.push(`lower(s.industry) = lower(${params.add(filter.industry)})`);
  if (filter.category) where.push(`lower(s.category) = lower(${params.add(filter.category)})`);
  if (filter.countryCode) where.push(`s.country_code = ${params.add(filter.countryCode.toUpperCase())}::bpchar`);
  if (filter.minVisits != null) where.push(`s.monthly_visits >= ${params.add(filter.minVisits)}`);
  if (filter.maxVisits != null) where.push(`s.monthly_visits <= ${params.add(filter.maxVisits)}`);
  if (filter.minRevenue != null) where.push(`s.revenue_high_usd >= ${params.add(filter.minRevenue)}`);
  if (filter.isDropshipper != null) where.push(`s.is_dropshipper = ${params.add(filter.isDropshipper)}`);
  return where;
}

export const whereClause = (conditions: readonly string[]): string =>
  conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
