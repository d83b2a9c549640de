// StoreFilter: the filters shared by the store search and the grouped rows, and their SQL.
import type { NumberValidationOptions, StringValidationOptions } from '@pothos/plugin-zod';
import { z } from 'zod';
import { appIdsBySlug } from '../apps/app-ids.ts';
import { builder } from '../graphql/builder.ts';
import type { Queryable, SqlParams } from '../platform/database/sql.ts';
import { LISTED_STORE } from './listed-stores.ts';
import {
  appChangeConditions,
  APP_CHANGE_FILTERS,
  laterThan,
  needsApp,
  type AppChangeFilterValues,
  type AppChangeIds,
} from './app-change-filter.ts';
import { matchStoreText, storeTextCondition, type StoreTextMatch } from './store-text-search.ts';

export interface StoreFilterValues extends AppChangeFilterValues {
  q?: string | null;
  vertical?: string | null;
  industry?: string | null;
  category?: string | null;
  countryCode?: string | null;
  minVisits?: number | null;
  maxVisits?: number | null;
  minRevenue?: number | null;
  isDropshipper?: boolean | null;
  /** app slugs the store runs, all of them */
  app?: readonly string[] | null;
  /** app slugs of which the store runs at least one */
  anyApp?: readonly string[] | null;
  /** app slugs the store runs none of */
  notApp?: readonly string[] | null;
  theme?: string | null;
  minProducts?: number | null;
  maxProducts?: number | null;
  /** first seen on or after this day (midnight UTC) */
  firstSeenAfter?: Date | null;
  /** first seen before this day (midnight UTC) */
  firstSeenBefore?: Date | null;
  /** domain suffix of whole labels: com, co.uk, shop.example */
  tld?: string | null;
}

/** The app filters with their slugs turned into app ids (resolveStoreFilter); unknown slugs are kept apart. */
export interface AppFilterIds {
  all: number[];
  any: number[];
  none: number[];
  /** app (all of), anyApp, installedApp or uninstalledApp names only apps the catalog does not have: nothing can match */
  impossible: boolean;
  /** slugs of app, anyApp, notApp, installedApp or uninstalledApp that name no app of the catalog */
  unknownSlugs: string[];
  /** installedApp and uninstalledApp */
  changes: AppChangeIds;
}

/** A filter ready for SQL: what the caller gave plus the app ids of its slugs and q's matched words. */
export interface ResolvedStoreFilter extends StoreFilterValues {
  appIds?: AppFilterIds;
  textMatch?: StoreTextMatch;
}

/** At most this many slugs in each of app, anyApp and notApp. */
export const MAX_APP_SLUGS = 10;

const name: StringValidationOptions = {
  type: 'string',
  minLength: [1, { message: 'must not be empty' }],
  maxLength: 100,
};
const count: NumberValidationOptions = {
  type: 'number',
  int: true,
  min: [0, { message: 'must not be negative' }],
};
const APP_SLUG = /^[a-z0-9][a-z0-9-]*$/;
const appSlug = {
  schema: z
    .string()
    .trim()
    .toLowerCase()
    .regex(APP_SLUG, { message: 'must be an app slug (lower-case letters, digits and dashes)' }),
};
const appSlugs = {
  schema: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(APP_SLUG, { message: 'must be app slugs (lower-case letters, digits and dashes)' }),
    )
    .min(1, { message: 'must name at least one app' })
    .max(MAX_APP_SLUGS, { message: `must name at most ${MAX_APP_SLUGS} apps` }),
};
/** A domain suffix of whole labels, without the leading dot: com, co.uk, shop.example. */
export const TLD = /^\.?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/i;
export const TLD_RULE = 'must be a domain suffix such as com, co.uk or shop.example';

export const StoreFilter = builder.inputType('StoreFilter', {
  description: 'Filters of the store search and of grouped rows. All given filters must hold.',
  fields: (t) => ({
    q: t.string({
      description:
        'Brand, name or domain, typo-tolerant: the exact domain first, then the exact name, a domain typed without its ' +
        'TLD, and stores whose name or domain words match (a word being typed as a prefix; one typing mistake in words ' +
        'of 3 to 5 letters, two from 6 on, a swap of neighbouring letters counting as one). A URL is reduced to its domain.',
      validate: {
        type: 'string',
        minLength: [2, { message: 'must be at least 2 characters' }],
        maxLength: 200,
      },
    }),
    vertical: t.string({ description: 'Vertical name, case-insensitive.', validate: name }),
    industry: t.string({ description: 'Industry name, case-insensitive.', validate: name }),
    category: t.string({ description: 'Category name, case-insensitive.', validate: name }),
    countryCode: t.string({
      description: 'ISO 3166-1 alpha-2 country code, case-insensitive.',
      validate: {
        type: 'string',
        regex: [/^[A-Za-z]{2}$/, { message: 'must be a 2-letter ISO country code' }],
      },
    }),
    minVisits: t.int({ description: 'Modeled monthly visits at least this.', validate: count }),
    maxVisits: t.int({ description: 'Modeled monthly visits at most this.', validate: count }),
    minRevenue: t.int({
      description: 'High end of the modeled monthly revenue band (USD) at least this.',
      validate: count,
    }),
    isDropshipper: t.boolean({ description: 'Dropshipper classifier output.' }),
    app: t.stringList({
      description: `Stores running every one of these apps (slugs, at most ${MAX_APP_SLUGS}).`,
      validate: appSlugs,
    }),
    anyApp: t.stringList({
      description: `Stores running at least one of these apps (slugs, at most ${MAX_APP_SLUGS}).`,
      validate: appSlugs,
    }),
    notApp: t.stringList({
      description: `Stores running none of these apps (slugs, at most ${MAX_APP_SLUGS}).`,
      validate: appSlugs,
    }),
    installedApp: t.string({
      description:
        'Stores observed installing this app (a slug): a period of it first seen running in [installedSince, ' +
        'installedBefore), or at any time without either; whether or not the store still runs it (add app for that). ' +
        'Dates are observations: the first one that saw the app running.',
      validate: appSlug,
    }),
    installedSince: t.field({
      type: 'DateTime',
      description:
        'With installedApp: first seen running at or after this moment (a day YYYY-MM-DD is its midnight UTC).',
    }),
    installedBefore: t.field({
      type: 'DateTime',
      description: 'With installedApp: first seen running before this moment.',
    }),
    uninstalledApp: t.string({
      description:
        'Stores observed dropping this app (a slug): a period of it first seen without it in [uninstalledSince, ' +
        'uninstalledBefore), or at any time without either. Dates are observations: the first one that saw the store ' +
        'without the app.',
      validate: appSlug,
    }),
    uninstalledSince: t.field({
      type: 'DateTime',
      description:
        'With uninstalledApp: first seen without it at or after this moment (a day YYYY-MM-DD is its midnight UTC).',
    }),
    uninstalledBefore: t.field({
      type: 'DateTime',
      description: 'With uninstalledApp: first seen without it before this moment.',
    }),
    theme: t.string({ description: 'Storefront theme name, case-insensitive.', validate: name }),
    minProducts: t.int({ description: 'Products in the catalog at least this.', validate: count }),
    maxProducts: t.int({ description: 'Products in the catalog at most this.', validate: count }),
    firstSeenAfter: t.field({
      type: 'Date',
      description: 'First seen on or after this day (UTC).',
    }),
    firstSeenBefore: t.field({ type: 'Date', description: 'First seen before this day (UTC).' }),
    tld: t.string({
      description:
        'Domain ending, whole labels without the leading dot: com, co.uk, shop.example (case-insensitive).',
      validate: { type: 'string', maxLength: 100, regex: [TLD, { message: TLD_RULE }] },
    }),
  }),
  validate: {
    refine: [
      [
        (f) => f.minVisits == null || f.maxVisits == null || f.minVisits <= f.maxVisits,
        { message: 'must not be below minVisits', path: ['maxVisits'] },
      ],
      [
        (f) => f.minProducts == null || f.maxProducts == null || f.minProducts <= f.maxProducts,
        { message: 'must not be below minProducts', path: ['maxProducts'] },
      ],
      [
        (f) =>
          f.firstSeenAfter == null ||
          f.firstSeenBefore == null ||
          f.firstSeenAfter < f.firstSeenBefore,
        { message: 'must be later than firstSeenAfter', path: ['firstSeenBefore'] },
      ],
      ...APP_CHANGE_FILTERS.flatMap(({ app, since, before }) => [
        ...[since, before].map(
          (bound) =>
            [
              (f: AppChangeFilterValues) => f[bound] == null || f[app] != null,
              { message: needsApp(app), path: [bound] },
            ] as [(f: AppChangeFilterValues) => boolean, { message: string; path: string[] }],
        ),
        [
          (f: AppChangeFilterValues) =>
            f[since] == null || f[before] == null || f[since] < f[before],
          { message: laterThan(since), path: [before] },
        ] as [(f: AppChangeFilterValues) => boolean, { message: string; path: string[] }],
      ]),
    ],
  },
});

/**
 * Turns the app slugs of a filter into app ids (see src/apps/app-ids.ts). A slug the catalog does
 * not have matches no store: under app (all of), installedApp or uninstalledApp nothing can match,
 * under anyApp it drops out (and nothing matches when none is left), under notApp it excludes nothing.
 */
export async function resolveStoreFilter(
  pool: Queryable,
  filter: StoreFilterValues | null | undefined,
): Promise<ResolvedStoreFilter | null> {
  if (!filter) return null;
  const textMatch = filter.q ? await matchStoreText(pool, filter.q) : undefined;
  const { app, anyApp, notApp, installedApp, uninstalledApp } = filter;
  const changed = [installedApp, uninstalledApp].filter((slug) => slug != null);
  if (!app?.length && !anyApp?.length && !notApp?.length && changed.length === 0)
    return { ...filter, textMatch };
  const slugs = [...(app ?? []), ...(anyApp ?? []), ...(notApp ?? []), ...changed];
  const ids = await appIdsBySlug(pool, slugs);
  const known = (slugs: readonly string[] | null | undefined) =>
    (slugs ?? []).flatMap((slug) => ids.get(slug) ?? []);
  const unknownSlugs = [...new Set(slugs.filter((slug) => !ids.has(slug)))];
  const all = known(app);
  const any = known(anyApp);
  const impossible =
    all.length < new Set(app ?? []).size ||
    (anyApp?.length ? any.length === 0 : false) ||
    changed.some((slug) => !ids.has(slug));
  return {
    ...filter,
    textMatch,
    appIds: {
      all: [...new Set(all)],
      any: [...new Set(any)],
      none: [...new Set(known(notApp))],
      impossible,
      unknownSlugs,
      changes: {
        installed: installedApp == null ? undefined : ids.get(installedApp),
        uninstalled: uninstalledApp == null ? undefined : ids.get(uninstalledApp),
      },
    },
  };
}

/**
 * The WHERE conditions of a filter over `stores` aliased `s`, listed stores only (listed-stores.ts)
 * unless `listedOnly` is false. q is its matched words (see store-text-search.ts), served by the
 * GIN index on search_terms and the domain and name indexes. Name filters compare lower() on both
 * sides, served by the expression indexes on lower(...).
 */
export function storeFilterConditions(
  filter: ResolvedStoreFilter | null | undefined,
  params: SqlParams,
  listedOnly = true,
): string[] {
  const where: string[] = listedOnly ? [LISTED_STORE] : [];
  if (!filter) return where;
  if (filter.q) {
    if (!filter.textMatch)
      throw new Error('q must pass through resolveStoreFilter before it becomes SQL');
    where.push(storeTextCondition(filter.textMatch, params));
  }
  if (filter.vertical) where.push(`lower(s.vertical) = lower(${params.add(filter.vertical)})`);
  if (filter.industry) where.push(`lower(s.industry) = lower(${params.add(filter.industry)})`);
  if (filter.category) where.push(`lower(s.category) = lower(${params.add(filter.category)})`);
  if (filter.countryCode)
    where.push(`s.country_code = ${params.add(filter.countryCode.toUpperCase())}::bpchar`);
  if (filter.minVisits != null) where.push(`s.monthly_visits >= ${params.add(filter.minVisits)}`);
  if (filter.maxVisits != null) where.push(`s.monthly_visits <= ${params.add(filter.maxVisits)}`);
  if (filter.minRevenue != null)
    where.push(`s.revenue_high_usd >= ${params.add(filter.minRevenue)}`);
  if (filter.isDropshipper != null)
    where.push(`s.is_dropshipper = ${params.add(filter.isDropshipper)}`);
  where.push(...appConditions(filter, params));
  if (filter.theme) where.push(`lower(s.theme_name) = lower(${params.add(filter.theme)})`);
  if (filter.minProducts != null)
    where.push(`s.product_count >= ${params.add(filter.minProducts)}`);
  if (filter.maxProducts != null)
    where.push(`s.product_count <= ${params.add(filter.maxProducts)}`);
  if (filter.firstSeenAfter) where.push(`s.first_seen_at >= ${params.add(filter.firstSeenAfter)}`);
  if (filter.firstSeenBefore) where.push(`s.first_seen_at < ${params.add(filter.firstSeenBefore)}`);
  if (filter.tld) where.push(`reverse(s.domain) LIKE ${params.add(tldPattern(filter.tld))}`);
  return where;
}

/**
 * The app filters as semi-joins on store_apps (the app-change ones on store_app_periods), one app id each for app (all of), so the planner
 * sees each app's own install count: it walks the sorted stores and probes store_apps' primary key
 * for a common app, and starts from the (app_id, store_id) index for a rare one.
 */
function appConditions(filter: ResolvedStoreFilter, params: SqlParams): string[] {
  const ids = filter.appIds;
  if (!ids) {
    if (
      filter.app?.length ||
      filter.anyApp?.length ||
      filter.notApp?.length ||
      filter.installedApp != null ||
      filter.uninstalledApp != null
    ) {
      throw new Error('app filters must pass through resolveStoreFilter before they become SQL');
    }
    return [];
  }
  if (ids.impossible) return ['false'];
  const installed = (appId: string) =>
    `SELECT 1 FROM store_apps sa WHERE sa.store_id = s.id AND sa.app_id ${appId}`;
  const where = ids.all.map((id) => `EXISTS (${installed(`= ${params.add(id)}`)})`);
  if (ids.any.length) where.push(`EXISTS (${installed(`= ANY (${params.add(ids.any)}::int[])`)})`);
  if (ids.none.length)
    where.push(`NOT EXISTS (${installed(`= ANY (${params.add(ids.none)}::int[])`)})`);
  where.push(...appChangeConditions(filter, ids.changes, params));
  return where;
}

/**
 * The tld filter as a prefix of the reversed domain ("com.example" → "elpmaxe.moc.%"), which the
 * index on reverse(domain) serves as a range scan. The suffix starts at a dot, so "com" never
 * matches "example.telecom".
 */
export function tldPattern(tld: string): string {
  const suffix = `.${tld.toLowerCase().replace(/^\./, '')}`;
  return `${[...suffix].reverse().join('')}%`;
}

export const whereClause = (conditions: readonly string[]): string =>
  conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
