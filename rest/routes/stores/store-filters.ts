// The store filters of GET /v1/stores, shared with GET /v1/stores/facets and the alert routes:
// their query parameters, the StoreFilter variable they become, and the checks across them.
import { z } from 'zod';
import { booleanParam, dateParam, integerParam, momentParam, textParam } from '../../params.ts';
import { MAX_APP_SLUGS, TLD, TLD_RULE } from '../../../src/stores/store-filter.ts';
import { appChangeIssues } from '../../../src/stores/app-change-filter.ts';
import { SEEDED } from '../../../src/seed/seeded-catalog.ts';

const slugRule = `must be 1 to ${MAX_APP_SLUGS} comma-separated app slugs (lower-case letters, digits and dashes)`;
/** app, anyApp, notApp: comma-separated app slugs (as GET /v1/apps lists them). */
const appSlugsParam = (description: string) =>
  z
    .string({ error: slugRule })
    .transform((value) =>
      value
        .split(',')
        .map((slug) => slug.trim().toLowerCase())
        .filter((slug) => slug.length > 0),
    )
    .pipe(
      z
        .array(z.string().regex(/^[a-z0-9][a-z0-9-]*$/, { error: slugRule }))
        .min(1, { error: slugRule })
        .max(MAX_APP_SLUGS, { error: slugRule }),
    )
    .optional()
    .meta({ description, example: 'klaviyo-email-marketing,judgeme' });

const oneSlugRule = 'must be one app slug (lower-case letters, digits and dashes)';
/** installedApp, uninstalledApp: one app slug. */
const appSlugParam = (description: string, example: string) =>
  z
    .string({ error: oneSlugRule })
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9-]*$/, { error: oneSlugRule })
    .optional()
    .meta({ description, example });
const observedAt = (description: string, example: string) =>
  momentParam()
    .optional()
    .meta({
      description: `${description} A date YYYY-MM-DD (midnight UTC) or an ISO 8601 timestamp with its offset.`,
      example,
    });

/** The filters of GET /v1/stores, shared by the plain and grouped modes and the facets. */
export const storeFilterParams = {
  q: textParam()
    .optional()
    .meta({
      description:
        'Brand, name or domain, typo-tolerant (one or two typing mistakes by word length, a word being typed as a prefix): ' +
        'the exact domain first, then the exact name, then a domain typed without its TLD, then word matches by relevance.',
    }),
  vertical: textParam().optional().meta({ description: 'Vertical name, case-insensitive.' }),
  industry: textParam().optional().meta({ description: 'Industry name, case-insensitive.' }),
  category: textParam().optional().meta({ description: 'Category name, case-insensitive.' }),
  countryCode: z
    .string()
    .regex(/^[A-Za-z]{2}$/, { error: 'must be an ISO 3166-1 alpha-2 country code' })
    .optional()
    .meta({ description: 'ISO 3166-1 alpha-2 code, case-insensitive.', example: 'US' }),
  minVisits: integerParam({ min: 0 })
    .optional()
    .meta({ description: 'Minimum modeled monthly visits.' }),
  maxVisits: integerParam({ min: 0 })
    .optional()
    .meta({ description: 'Maximum modeled monthly visits.' }),
  minRevenue: integerParam({ min: 0 })
    .optional()
    .meta({ description: 'Minimum modeled monthly revenue in USD (high end of the band).' }),
  isDropshipper: booleanParam()
    .optional()
    .meta({ description: 'Filter on the dropshipper classification.' }),
  app: appSlugsParam(
    'Stores running every one of these apps: comma-separated app slugs (GET /v1/apps lists them).',
  ),
  anyApp: appSlugsParam('Stores running at least one of these apps: comma-separated app slugs.'),
  notApp: appSlugsParam('Stores running none of these apps: comma-separated app slugs.'),
  installedApp: appSlugParam(
    'Stores observed installing this app (one slug): a period of it whose first observation running it is in ' +
      '[installedSince, installedBefore), or at any time without either bound, whether or not the store still runs ' +
      'it (add app=<slug> for "still runs"). An unknown slug matches nothing and is named in meta.suggestions.',
    SEEDED.changedApp,
  ),
  installedSince: observedAt(
    'With installedApp: first seen running at or after this moment (an observation date).',
    SEEDED.changesSince,
  ),
  installedBefore: observedAt(
    'With installedApp: first seen running before this moment (an observation date).',
    SEEDED.changesBefore,
  ),
  uninstalledApp: appSlugParam(
    'Stores observed dropping this app (one slug): a period of it whose first observation without it is in ' +
      '[uninstalledSince, uninstalledBefore), or at any time without either bound, whether or not it was installed ' +
      'again since. An unknown slug matches nothing and is named in meta.suggestions.',
    SEEDED.changedApp,
  ),
  uninstalledSince: observedAt(
    'With uninstalledApp: first seen without it at or after this moment (an observation date).',
    SEEDED.changesSince,
  ),
  uninstalledBefore: observedAt(
    'With uninstalledApp: first seen without it before this moment (an observation date).',
    SEEDED.changesBefore,
  ),
  theme: textParam(100)
    .optional()
    .meta({ description: 'Storefront theme name, case-insensitive.', example: 'Dawn' }),
  minProducts: integerParam({ min: 0 })
    .optional()
    .meta({ description: 'Minimum number of products in the catalog.' }),
  maxProducts: integerParam({ min: 0 })
    .optional()
    .meta({ description: 'Maximum number of products in the catalog.' }),
  firstSeenAfter: dateParam()
    .optional()
    .meta({ description: 'First seen on or after this day (UTC).' }),
  firstSeenBefore: dateParam()
    .optional()
    .meta({ description: 'First seen before this day (UTC).' }),
  tld: z
    .string({ error: TLD_RULE })
    .regex(TLD, { error: TLD_RULE })
    .max(100, { error: TLD_RULE })
    .optional()
    .meta({
      description:
        'Domain ending in whole labels, without the leading dot: com, co.uk; the seeded demo catalog uses shop.example, com.example, ... (tld=example matches all of it).',
      example: 'com.example',
    }),
};

/** The filters as the StoreFilter variable. */
export const storeFilterVariables = (p: z.infer<z.ZodObject<typeof storeFilterParams>>) => ({
  q: p.q,
  vertical: p.vertical,
  industry: p.industry,
  category: p.category,
  countryCode: p.countryCode,
  minVisits: p.minVisits,
  maxVisits: p.maxVisits,
  minRevenue: p.minRevenue,
  isDropshipper: p.isDropshipper,
  app: p.app,
  anyApp: p.anyApp,
  notApp: p.notApp,
  installedApp: p.installedApp,
  installedSince: p.installedSince,
  installedBefore: p.installedBefore,
  uninstalledApp: p.uninstalledApp,
  uninstalledSince: p.uninstalledSince,
  uninstalledBefore: p.uninstalledBefore,
  theme: p.theme,
  minProducts: p.minProducts,
  maxProducts: p.maxProducts,
  firstSeenAfter: p.firstSeenAfter,
  firstSeenBefore: p.firstSeenBefore,
  tld: p.tld,
});

/** min ≤ max of the filters that come in pairs. */
export function checkFilterRanges(
  params: z.infer<z.ZodObject<typeof storeFilterParams>>,
  ctx: z.RefinementCtx,
) {
  if (
    params.minVisits !== undefined &&
    params.maxVisits !== undefined &&
    params.minVisits > params.maxVisits
  ) {
    ctx.addIssue({ code: 'custom', path: ['minVisits'], message: 'must not exceed maxVisits' });
  }
  if (
    params.minProducts !== undefined &&
    params.maxProducts !== undefined &&
    params.minProducts > params.maxProducts
  ) {
    ctx.addIssue({ code: 'custom', path: ['minProducts'], message: 'must not exceed maxProducts' });
  }
  if (
    params.firstSeenAfter !== undefined &&
    params.firstSeenBefore !== undefined &&
    params.firstSeenAfter >= params.firstSeenBefore
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['firstSeenBefore'],
      message: 'must be later than firstSeenAfter',
    });
  }
  const moment = (value: string | undefined) => (value === undefined ? null : new Date(value));
  for (const issue of appChangeIssues({
    installedApp: params.installedApp,
    installedSince: moment(params.installedSince),
    installedBefore: moment(params.installedBefore),
    uninstalledApp: params.uninstalledApp,
    uninstalledSince: moment(params.uninstalledSince),
    uninstalledBefore: moment(params.uninstalledBefore),
  }))
    ctx.addIssue({ code: 'custom', path: [issue.parameter], message: issue.message });
}
