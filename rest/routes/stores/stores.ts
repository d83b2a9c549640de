import { z } from 'zod';
import {
  CompareStoresDocument,
  GetStoreDocument,
  GetStoreTrafficDocument,
  ListStoreAppsDocument,
  ListStoreHistoryDocument,
  ListStoreProductsDocument,
  SearchStoresDocument,
  StoreFacetsDocument,
  type GetStoreQuery,
  LookupStoresDocument,
} from '../../generated/operations.ts';
import { connectionArgs, listEnvelope, pageOfList } from '../../pagination.ts';
import {
  booleanParam,
  dateParam,
  domainParam,
  enumParam,
  integerParam,
  momentParam,
  paginationParams,
  textParam,
} from '../../params.ts';
import { defineRoute, noPathParams, noQuery, type RestRoute } from '../../route.ts';
import { MAX_HISTORY_DAYS } from '../../../src/graphql/pagination.ts';
import { MAX_APP_SLUGS, TLD, TLD_RULE } from '../../../src/stores/store-filter.ts';
import { appChangeIssues } from '../../../src/stores/app-change-filter.ts';
import { DEFAULT_FACET_VALUES, MAX_FACET_VALUES } from '../../../src/stores/store-facets.ts';
import {
  AppList,
  ProductList,
  StoreList,
  DateTime,
  Day,
  Month,
  PercentBand,
  RevenueBand,
  listOf,
  orNull,
  App,
  StoreCard,
  TrafficMix,
  cardFields,
  FilterSuggestion,
  suggestions,
} from '../../shapes.ts';
import { SEEDED } from '../../../src/seed/seeded-catalog.ts';
import { fromGraphqlEnum, toGraphqlEnum } from '../../../src/graphql/enums.ts';
import { parseDomain } from '../../../src/stores/domain.ts';
import { MAX_LOOKUP } from '../../../src/stores/store-lookup.query.ts';

const Socials = z
  .strictObject({
    instagram: z.string().nullable(),
    facebook: z.string().nullable(),
    tiktok: z.string().nullable(),
    twitter: z.string().nullable(),
    youtube: z.string().nullable(),
    pinterest: z.string().nullable(),
  })
  .meta({
    id: 'Socials',
    description: 'Social profile URLs from the legacy store; null when not observed.',
  });

const StoreMetrics = z
  .strictObject({
    productCount: z.number().int().meta({ description: 'Products in the catalog (catalog size).' }),
    bestSellerCount: z.number().int(),
    appCount: z.number().int(),
    medianPriceUsd: z.number().nullable(),
    socialFollowers: z.number().int().nullable(),
    adSpendUsd: z.number().nullable().meta({ description: 'Modeled monthly ad spend, USD.' }),
    visitsChangePct: z
      .number()
      .nullable()
      .meta({ description: 'Change of modeled visits over 30 days, percent.' }),
    revenueChangePct: z
      .number()
      .nullable()
      .meta({ description: 'Change of the revenue band high end over 30 days, percent.' }),
  })
  .meta({ id: 'StoreMetrics' });

const ModelExplanation = z
  .strictObject({
    model: z.string().meta({ description: 'Name and version of the model.' }),
    method: z
      .string()
      .meta({ description: 'How the figure is computed, in one or two sentences.' }),
    fields: z.array(z.string()).meta({ description: 'Profile fields this model produces.' }),
    inputs: z
      .array(
        z.strictObject({
          name: z.string(),
          value: z
            .union([z.number(), z.boolean(), z.string(), z.null()])
            .meta({ description: 'null when not observed.' }),
        }),
      )
      .meta({ description: "This store's inputs to the model." }),
  })
  .meta({
    id: 'ModelExplanation',
    description: 'How a modeled figure of this store is computed: method and inputs.',
  });

export const StoreModels = z
  .strictObject({
    revenue: ModelExplanation,
    visits: ModelExplanation,
    rating: ModelExplanation,
    dropshipper: ModelExplanation,
    adSpend: ModelExplanation,
  })
  .meta({
    id: 'StoreModels',
    description: 'The models behind the modeled figures, with the inputs of this store.',
  });

export const StoreObservation = z
  .strictObject({
    presence: z.enum(['active', 'failing', 'vanished']).meta({
      description:
        'active: the last observation read the storefront. failing: the last observations failed; still listed. vanished: ' +
        'the storefront is gone (several observations in a row): the store is left out of search results and grouped ' +
        'rows, stays readable here, and is looked at again weekly.',
    }),
    presenceSince: DateTime,
    lastObservedAt: DateTime.nullable().meta({
      description: 'The last observation that read the storefront.',
    }),
    nextObservationAt: DateTime.meta({
      description: 'When the scheduler next observes the store.',
    }),
    intervalHours: z.number().meta({
      description: 'Hours between observations, by popularity and how often the store changes.',
    }),
    failureKind: z.string().nullable().meta({
      description: 'Why the last observation failed, e.g. not_found, unresolvable, moved.',
    }),
    movedTo: z
      .string()
      .nullable()
      .meta({ description: 'The host the storefront now redirects to, when it moved.' }),
  })
  .meta({
    id: 'StoreObservation',
    description: "The crawler's view of a store (see the Crawler section).",
  });

export const StoreProfile = z
  .strictObject({
    ...cardFields,
    name: z.string(),
    industry: z.string().nullable(),
    category: z.string().nullable(),
    currency: z
      .string()
      .meta({ description: "The storefront's own currency; money fields stay USD." }),
    legacyId: z
      .string()
      .nullable()
      .meta({ description: 'Id in the legacy store database, when known.' }),
    theme: z.string().nullable(),
    firstSeenAt: DateTime,
    lastScrapedAt: DateTime.nullable(),
    metrics: StoreMetrics,
    conversionRatePct: orNull(PercentBand).meta({
      description: 'Modeled conversion rate band, percent.',
    }),
    averageOrderValueUsd: z
      .number()
      .nullable()
      .meta({ description: 'Modeled average order value, USD.' }),
    dropshipperScore: z
      .number()
      .meta({ description: 'Classifier score behind isDropshipper, 0 to 1.' }),
    screenshotUrl: z.string().nullable(),
    socials: Socials,
    emails: z.array(z.string()),
    apps: z.array(App).meta({ description: 'Installed apps (the whole observed stack).' }),
    models: StoreModels,
    observation: orNull(StoreObservation).meta({
      description:
        'How the crawler sees the store; null for a store it never visits (the synthetic demo catalog).',
    }),
  })
  .meta({
    id: 'StoreProfile',
    description: 'The unified store profile: the card plus the profile fields.',
  });

export const StoreGroupRow = z
  .strictObject({
    key: z.string().meta({ description: 'parent, or "parent / leaf" with groupBy2.' }),
    parent: z.string().nullable().meta({ description: 'Value of the groupBy grouping.' }),
    leaf: z
      .string()
      .nullable()
      .meta({ description: 'Value of the groupBy2 grouping; null without groupBy2.' }),
    stores: z
      .number()
      .int()
      .meta({ description: 'Stores in the group (what sort=stores orders by).' }),
    metrics: z.strictObject({
      monthlyRevenueUsd: z.number().meta({
        description:
          'The groupMetric aggregate of the high end of the revenue band: modeled, not GMV.',
      }),
      monthlyVisits: z
        .number()
        .meta({ description: 'The groupMetric aggregate of modeled monthly visits.' }),
    }),
  })
  .meta({ id: 'StoreGroupRow', description: 'A grouped row. Grouped rows are not stores.' });

export const STORE_GROUPINGS = ['country', 'vertical', 'industry', 'category'] as const;
export const GROUP_METRICS = ['mean', 'median', 'max', 'min'] as const;

export const StoreGroupList = z
  .strictObject({
    data: z.array(StoreGroupRow),
    page: StoreList.shape.page,
    meta: z.strictObject({
      mode: z.literal('grouped'),
      groupBy: z.enum(STORE_GROUPINGS),
      groupBy2: z.enum(STORE_GROUPINGS).nullable(),
      groupMetric: z.enum(GROUP_METRICS),
      suggestions: suggestions.optional(),
    }),
  })
  .meta({
    id: 'StoreGroupList',
    description: 'A page of grouped rows (GET /v1/stores with groupBy).',
  });

const FacetValue = z
  .strictObject({
    value: z.string().meta({
      description: 'A value as the catalog spells it: pass it as the filter of the same name.',
    }),
    stores: z
      .number()
      .int()
      .meta({ description: 'Stores with this value among those the filters keep.' }),
  })
  .meta({ id: 'FacetValue' });

const facetValues = (description: string) => z.array(FacetValue).meta({ description });

export const StoreFacets = z
  .strictObject({
    stores: z.number().int().meta({ description: 'Stores the filters keep.' }),
    facets: z.strictObject({
      vertical: facetValues('Values of the vertical filter.'),
      industry: facetValues('Values of the industry filter.'),
      category: facetValues('Values of the category filter.'),
      countryCode: facetValues('Values of the countryCode filter.'),
      theme: facetValues('Values of the theme filter.'),
      tld: facetValues(
        'Values of the tld filter: domain endings (store.example, example), each counting every store whose domain ends in it.',
      ),
      app: facetValues('App slugs, for the app, anyApp and notApp filters.'),
    }),
    suggestions: z.array(FilterSuggestion).meta({
      description:
        'For each filter value no store of the catalog has, the nearest valid values; empty when every value exists.',
    }),
  })
  .meta({
    id: 'StoreFacets',
    description:
      "The store filters' valid values with store counts among the stores the filters keep, most stores first.",
  });

export const StoreComparison = z
  .strictObject({
    data: z
      .array(StoreCard)
      .meta({ description: 'Cards of the stores found, in the order asked.' }),
    notFound: z
      .array(z.string())
      .meta({ description: 'Domains asked for that are not in the catalog.' }),
  })
  .meta({ id: 'StoreComparison' });

export const HistoryPoint = z
  .strictObject({
    day: Day,
    monthlyVisits: z.number().int(),
    monthlyRevenueUsd: RevenueBand,
    serviceRating: z.number(),
    productCount: z.number().int().meta({ description: 'Catalog size on that day.' }),
    synthetic: z.boolean().meta({
      description:
        "True for the demo catalog's synthetic history (the seed); false for a day written by an observation of the storefront.",
    }),
  })
  .meta({
    id: 'HistoryPoint',
    description: 'Daily snapshot of a store (modeled figures as observed that day).',
  });

export const HistoryList = listOf(
  HistoryPoint,
  'HistoryList',
  'A page of daily snapshots, newest first.',
);

export const TrafficPoint = z
  .strictObject({
    month: Month,
    visits: z.number().int(),
    organic: z.number(),
    paid: z.number(),
    social: z.number(),
    direct: z.number(),
    referral: z.number(),
    source: z.string(),
  })
  .meta({ id: 'TrafficPoint', description: 'One month of modeled traffic; shares 0 to 1.' });

export const StoreTraffic = z
  .strictObject({
    data: z.array(TrafficPoint).meta({ description: 'Monthly series, newest month first.' }),
    page: StoreList.shape.page,
    latest: orNull(TrafficMix).meta({
      description: 'Latest third-party mix; null when none was observed.',
    }),
  })
  .meta({ id: 'StoreTraffic' });

const domainPath = z.strictObject({ domain: domainParam() });

const STORE_SORTS = ['revenue', 'visits', 'stores', 'rating', 'newest', 'relevance'] as const;
const GROUP_SORTS = ['stores', 'revenue', 'visits'] as const;
type GroupSort = (typeof GROUP_SORTS)[number];
const isGroupSort = (sort: string | undefined): sort is GroupSort =>
  GROUP_SORTS.some((s) => s === sort);

/** REST's sort values as GraphQL's orderBy fields (newest is FIRST_SEEN, DESC). */
const STORE_ORDER_FIELDS = {
  revenue: 'REVENUE',
  visits: 'VISITS',
  rating: 'RATING',
  newest: 'FIRST_SEEN',
  relevance: 'RELEVANCE',
} as const;
/** REST's groupBy values as GraphQL's StoreGrouping (country is COUNTRY_CODE). */
const GROUPINGS = {
  country: 'COUNTRY_CODE',
  vertical: 'VERTICAL',
  industry: 'INDUSTRY',
  category: 'CATEGORY',
} as const;

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

const searchQuery = z
  .strictObject({
    ...storeFilterParams,
    sort: enumParam(STORE_SORTS)
      .optional()
      .meta({
        description:
          'Without groupBy: revenue (default; relevance when q is given), visits, rating, newest or relevance; ' +
          'stores has no meaning for stores and gives the default order, so a grouped query with groupBy dropped ' +
          'still works. With groupBy: stores (default), revenue or visits.',
      }),
    groupBy: enumParam(STORE_GROUPINGS).optional().meta({
      description:
        'Roll the filtered stores up by this grouping (grouped mode, meta.mode = grouped).',
    }),
    groupBy2: enumParam(STORE_GROUPINGS).optional().meta({
      description:
        'Second grouping inside groupBy: rows get a parent and a leaf. Ignored without groupBy.',
    }),
    groupMetric: enumParam(GROUP_METRICS)
      .default('median')
      .meta({ description: 'Aggregate of the grouped metrics. Ignored without groupBy.' }),
    ...paginationParams(),
  })
  .superRefine((params, ctx) => {
    checkFilterRanges(params, ctx);
    if (params.groupBy !== undefined && params.groupBy2 === params.groupBy) {
      ctx.addIssue({ code: 'custom', path: ['groupBy2'], message: 'must differ from groupBy' });
    }
    if (params.groupBy !== undefined && params.sort !== undefined && !isGroupSort(params.sort)) {
      ctx.addIssue({
        code: 'custom',
        path: ['sort'],
        message: `with groupBy, must be one of: ${GROUP_SORTS.join(', ')}`,
      });
    }
  });

export const searchStores = defineRoute({
  operationId: 'searchStores',
  exportable: true,
  method: 'GET',
  path: '/v1/stores',
  tag: 'Stores',
  summary: 'Search stores, or roll them up by a grouping',
  description:
    'Without groupBy: a page of store cards. With groupBy: a page of grouped rows over the same filters, with ' +
    '`meta.mode = "grouped"`; grouped rows are not stores. Drop groupBy (and add the cell as a filter, e.g. ' +
    'countryCode) to list the stores behind a grouped cell; groupBy2, groupMetric and sort=stores then have no effect.',
  document: SearchStoresDocument,
  pathParams: noPathParams,
  query: searchQuery,
  canBeNotFound: false,
  variables: (p) => {
    const grouped = p.groupBy !== undefined;
    return {
      grouped,
      filter: storeFilterVariables(p),
      orderBy:
        grouped || p.sort === undefined || p.sort === 'stores'
          ? undefined
          : { field: STORE_ORDER_FIELDS[p.sort], direction: 'DESC' as const },
      groupBy: p.groupBy && GROUPINGS[p.groupBy],
      groupBy2: grouped && p.groupBy2 ? GROUPINGS[p.groupBy2] : undefined,
      groupMetric: grouped ? toGraphqlEnum(p.groupMetric) : undefined,
      groupOrderBy:
        grouped && isGroupSort(p.sort)
          ? { field: toGraphqlEnum(p.sort), direction: 'DESC' as const }
          : undefined,
      ...connectionArgs(p),
    };
  },
  response: z.union([StoreList, StoreGroupList]),
  respond: (data, p) => {
    if (p.groupBy === undefined) {
      const stores = required(data.stores, 'stores');
      const { filterSuggestions: suggestions } = stores;
      return {
        ...listEnvelope(stores, p),
        ...(suggestions.length ? { meta: { suggestions } } : {}),
      };
    }
    const groups = required(data.storeGroups, 'storeGroups');
    const { filterSuggestions: suggestions } = groups;
    return {
      ...listEnvelope(groups, p),
      meta: {
        mode: 'grouped' as const,
        groupBy: p.groupBy,
        groupBy2: p.groupBy2 ?? null,
        groupMetric: p.groupMetric,
        ...(suggestions.length ? { suggestions } : {}),
      },
    };
  },
  example: `/v1/stores?q=${SEEDED.brand}&limit=5`,
});

export const storeFacets = defineRoute({
  operationId: 'storeFacets',
  method: 'GET',
  path: '/v1/stores/facets',
  tag: 'Stores',
  summary: 'The valid values of the store filters, with store counts',
  description:
    'The values of vertical, industry, category, countryCode, theme, tld and app (slugs) among the stores the same filters ' +
    'as GET /v1/stores keep (the whole catalog without any), each with its number of stores, most stores first; pass a ' +
    'value as the filter of the same name. `suggestions` names the nearest valid values of any filter value no store has. ' +
    "Without filters the counts are the whole catalog's, recomputed with the grouped rollups every few minutes; with " +
    'filters they are counted live.',
  document: StoreFacetsDocument,
  pathParams: noPathParams,
  query: z
    .strictObject(storeFilterParams)
    .extend({
      perFacet: integerParam({ min: 1, max: MAX_FACET_VALUES })
        .default(DEFAULT_FACET_VALUES)
        .meta({
          description: `Values listed per facet, most stores first: 1 to ${MAX_FACET_VALUES}.`,
        }),
    })
    .superRefine(checkFilterRanges),
  canBeNotFound: false,
  variables: (p) => ({ filter: storeFilterVariables(p), perFacet: p.perFacet }),
  response: StoreFacets,
  respond: (data) => {
    const { stores, suggestions, ...facets } = data.storeFacets;
    return { stores, facets, suggestions };
  },
  example: `/v1/stores/facets?vertical=${encodeURIComponent(SEEDED.vertical)}&perFacet=10`,
});

export const getStore = defineRoute({
  operationId: 'getStore',
  method: 'GET',
  path: '/v1/stores/{domain}',
  tag: 'Stores',
  summary: 'One unified store profile',
  description:
    'The store card plus the profile fields: metrics (catalog size, app count, ad spend, 30-day changes), ' +
    'the modeled conversion band and average order value, screenshot, socials, emails, the installed apps, and ' +
    "`models`: the method and this store's inputs behind each modeled figure. " +
    'A store that moved to a new host is answered at its old domain too, under its new `domain`. ' +
    'A store missing from the catalog is not_found (404); queue a scrape for it.',
  document: GetStoreDocument,
  pathParams: domainPath,
  query: noQuery,
  canBeNotFound: true,
  variables: (p) => ({ domain: p.domain }),
  response: StoreProfile,
  respond: ({ store }) => ({
    ...store,
    observation: store.observation && {
      ...store.observation,
      presence: fromGraphqlEnum(store.observation.presence),
    },
    models: explainModels(store.models),
  }),
  example: `/v1/stores/${SEEDED.domain}`,
});

const MIN_COMPARE = 2;
const MAX_COMPARE = 8;
const compareRule = `must list ${MIN_COMPARE} to ${MAX_COMPARE} comma-separated domains`;

export const compareStores = defineRoute({
  operationId: 'compareStores',
  method: 'GET',
  path: '/v1/stores/compare',
  tag: 'Stores',
  summary: 'Compare 2 to 8 stores side by side',
  description:
    'Returns `{data: [store cards in the order asked], notFound: [domains not in the catalog]}`. Missing domains ' +
    'never make this route fail with 404.',
  document: CompareStoresDocument,
  pathParams: noPathParams,
  query: z.strictObject({
    domains: z
      .string({ error: compareRule })
      .transform((value) =>
        value
          .split(',')
          .map((domain) => domain.trim())
          .filter((domain) => domain.length > 0),
      )
      .pipe(
        z
          .array(z.string())
          .min(MIN_COMPARE, { error: compareRule })
          .max(MAX_COMPARE, { error: compareRule }),
      )
      .meta({
        description: `${MIN_COMPARE} to ${MAX_COMPARE} domains (bare or full URLs), comma-separated.`,
        example: `${SEEDED.domain},${SEEDED.otherDomain}`,
      }),
  }),
  canBeNotFound: false,
  variables: (p) => ({ domains: p.domains }),
  response: StoreComparison,
  respond: (data) => ({ data: data.compareStores.stores, notFound: data.compareStores.notFound }),
  example: `/v1/stores/compare?domains=${SEEDED.domain},${SEEDED.otherDomain}`,
});

export const listStoreProducts = defineRoute({
  operationId: 'listStoreProducts',
  exportable: true,
  method: 'GET',
  path: '/v1/stores/{domain}/products',
  tag: 'Stores',
  summary: "A store's products",
  description: 'Best sellers first (by rank), then the rest.',
  document: ListStoreProductsDocument,
  pathParams: domainPath,
  query: z.strictObject({
    isBestSeller: booleanParam()
      .optional()
      .meta({ description: 'Only best sellers (true) or only the others (false).' }),
    ...paginationParams(),
  }),
  canBeNotFound: true,
  variables: (p) => ({ domain: p.domain, isBestSeller: p.isBestSeller, ...connectionArgs(p) }),
  response: ProductList,
  respond: (data, p) => listEnvelope(data.store.products, p),
  example: `/v1/stores/${SEEDED.domain}/products?isBestSeller=true`,
});

export const listStoreHistory = defineRoute({
  operationId: 'listStoreHistory',
  method: 'GET',
  path: '/v1/stores/{domain}/history',
  tag: 'Stores',
  summary: 'Daily snapshots of a store',
  description:
    `Newest day first, one snapshot per day. The one list whose limit goes past 100: up to ${MAX_HISTORY_DAYS} ` +
    'days in one page, as the contract asks for (e.g. limit=90 or limit=180).',
  document: ListStoreHistoryDocument,
  pathParams: domainPath,
  query: z.strictObject(paginationParams(MAX_HISTORY_DAYS)),
  canBeNotFound: true,
  variables: (p) => ({ domain: p.domain, ...connectionArgs(p) }),
  response: HistoryList,
  respond: (data, p) => listEnvelope(data.store.history, p),
  example: `/v1/stores/${SEEDED.domain}/history?limit=90`,
});

export const getStoreTraffic = defineRoute({
  operationId: 'getStoreTraffic',
  method: 'GET',
  path: '/v1/stores/{domain}/traffic',
  tag: 'Stores',
  summary: 'Monthly traffic series plus the latest third-party mix',
  description:
    'The list envelope over monthly points (newest first) with one extra field, `latest`: the latest ' +
    'third-party traffic mix, or null when none was observed. Visits and shares are modeled estimates.',
  document: GetStoreTrafficDocument,
  pathParams: domainPath,
  query: z.strictObject(paginationParams()),
  canBeNotFound: true,
  variables: (p) => ({ domain: p.domain, ...connectionArgs(p) }),
  response: StoreTraffic,
  respond: (data, p) => ({
    ...listEnvelope(data.store.traffic.series, p),
    latest: data.store.traffic.latest,
  }),
  example: `/v1/stores/${SEEDED.domain}/traffic?limit=24`,
});

export const listStoreApps = defineRoute({
  operationId: 'listStoreApps',
  method: 'GET',
  path: '/v1/stores/{domain}/apps',
  tag: 'Stores',
  summary: 'The full app stack of a store',
  description:
    'Every app observed on the store, most installed first, then by name; paged with limit and offset like every list.',
  document: ListStoreAppsDocument,
  pathParams: domainPath,
  query: z.strictObject(paginationParams()),
  canBeNotFound: true,
  variables: (p) => ({ domain: p.domain }),
  response: AppList,
  respond: (data, p) => pageOfList(data.store.apps, p),
  example: `/v1/stores/${SEEDED.domain}/apps`,
});

type ModelExplanation = NonNullable<GetStoreQuery['store']>['models']['revenue'];

/** GraphQL's one-typed-slot-per-kind inputs become one `value` in JSON. */
function explainModel({ inputs, ...explanation }: ModelExplanation) {
  return {
    ...explanation,
    inputs: inputs.map((input) => ({
      name: input.name,
      value: input.number ?? input.boolean ?? input.text ?? null,
    })),
  };
}

function explainModels(models: NonNullable<GetStoreQuery['store']>['models']) {
  return {
    revenue: explainModel(models.revenue),
    visits: explainModel(models.visits),
    rating: explainModel(models.rating),
    dropshipper: explainModel(models.dropshipper),
    adSpend: explainModel(models.adSpend),
  };
}

function required<T>(value: T | null | undefined, field: string): T {
  if (value === null || value === undefined) throw new Error(`operation result lacks ${field}`);
  return value;
}

// POST /v1/stores/lookup: up to 100 store cards by domain in one call (Query.lookupStores), as JSON
// or, asked for, as a CSV/NDJSON export; the domains come as JSON or as a CSV column.
const countRule = `must list 1 to ${MAX_LOOKUP} domains`;

const domains = z
  .array(z.string({ error: 'each domain must be a string' }), { error: countRule })
  .min(1, { error: countRule })
  .max(MAX_LOOKUP, { error: countRule })
  .superRefine((values, ctx) => {
    // the first malformed domain is named, with its position, before anything runs or is charged
    const bad = values.findIndex((value) => !parseDomain(value).ok);
    if (bad < 0) return;
    const parsed = parseDomain(values[bad]!);
    const rule = parsed.ok ? '' : parsed.rule;
    ctx.addIssue({
      code: 'custom',
      message: `item ${bad + 1} (${JSON.stringify(values[bad]!.slice(0, 100))}) ${rule}`,
    });
  })
  .meta({
    description: `1 to ${MAX_LOOKUP} domains (bare or full URLs). Repeats (after canonicalising: case, scheme, www.) count once, at their first position.`,
    example: [SEEDED.domain, `https://www.${SEEDED.otherDomain}/`],
  });

const MovedDomain = z
  .strictObject({
    requested: z.string().meta({ description: 'The domain asked for (canonical).' }),
    domain: z.string().meta({ description: "The store's domain now." }),
  })
  .meta({ id: 'MovedDomain' });

export const StoreLookupResult = z
  .strictObject({
    data: z.array(StoreCard).meta({
      description:
        'Cards of the stores found, in the order asked, each store once (its first position).',
    }),
    notFound: z
      .array(z.string())
      .meta({ description: 'Canonical domains asked for that are not in the catalog, in order.' }),
    moved: z.array(MovedDomain).meta({
      description:
        'Domains asked for that belong to a store that moved to a new host: its card (in data) carries its new domain.',
    }),
  })
  .meta({ id: 'StoreLookupResult' });

/** One CSV/NDJSON row per different domain asked, in the order asked. */
const LookupRow = z.strictObject({
  requested: z.string().meta({ description: 'The domain asked for (canonical).' }),
  found: z
    .boolean()
    .meta({ description: 'Whether the catalog has it; the card columns are empty when not.' }),
  ...StoreCard.shape,
});

export const lookupStores = defineRoute({
  operationId: 'lookupStores',
  method: 'POST',
  path: '/v1/stores/lookup',
  tag: 'Stores',
  summary: `Look up to ${MAX_LOOKUP} stores by domain`,
  description:
    `Body \`{"domains": [1 to ${MAX_LOOKUP} domains]}\`, or the domains as a \`text/csv\` body: one column, with or ` +
    'without a `domain` header row. Returns `{data: [store cards in the order asked], notFound: [domains not in the ' +
    'catalog], moved: [{requested, domain}]}`; missing domains never make it fail. Domains are canonicalised as ' +
    'everywhere (case, scheme, `www.`); a repeat is answered once, at its first position, and so is a store asked for ' +
    'by its old and its new domain. A store that moved to a new host answers under its old domain too (listed in ' +
    '`moved`). A malformed domain, an empty list, more than 100 domains or an unknown field is a bad_request that ' +
    'charges nothing.\n\n' +
    'Charge: each store found counts as one store lookup (the `storeLookups` bucket, as GET /v1/stores/{domain}); ' +
    'domains not found cost nothing, and the call counts once against the per-minute rate and per-key ceiling. All ' +
    'or nothing: when the bucket cannot pay for every store found the call is rate_limited, answers no card and ' +
    'charges nothing.\n\n' +
    'Export: `format=csv` or `format=ndjson`, or an Accept header preferring `text/csv` or `application/x-ndjson` ' +
    'to JSON (RFC 9110), answers one row per different domain asked, in order: `requested`, `found`, then the card ' +
    'columns (empty when not found; nested fields as dotted names), then the `#export rows=R total=R complete=true` line.',
  document: LookupStoresDocument,
  pathParams: noPathParams,
  query: noQuery,
  body: z.strictObject({ domains }),
  csvBody: 'domains',
  canBeNotFound: false,
  variables: (p) => ({ domains: p.domains }),
  response: StoreLookupResult,
  respond: (data) => {
    const { matches } = data.lookupStores;
    const seen = new Set<string>();
    const cards: z.input<typeof StoreCard>[] = [];
    for (const { store } of matches) {
      if (!store || seen.has(store.domain)) continue;
      seen.add(store.domain);
      cards.push(store);
    }
    return {
      data: cards,
      notFound: matches.filter((m) => !m.store).map((m) => m.requested),
      moved: matches.flatMap((m) =>
        m.store && m.store.domain !== m.requested
          ? [{ requested: m.requested, domain: m.store.domain }]
          : [],
      ),
    };
  },
  answerExport: {
    row: LookupRow,
    // one row per different domain asked, in order: the request's domains, canonical, lead to their cards
    rows: (body, params) => {
      const answer = body as z.output<typeof StoreLookupResult>;
      const byDomain = new Map(answer.data.map((card) => [card.domain, card]));
      const movedTo = new Map(answer.moved.map((m) => [m.requested, m.domain]));
      const asked = new Set(
        (params.domains as string[]).flatMap((value) => {
          const parsed = parseDomain(value);
          return parsed.ok ? [parsed.domain] : [];
        }),
      );
      return [...asked].map((requested) => {
        const card = byDomain.get(movedTo.get(requested) ?? requested);
        return card ? { requested, found: true, ...card } : { requested, found: false };
      });
    },
  },
  example: `/v1/stores/lookup {"domains":["${SEEDED.domain}","https://www.${SEEDED.otherDomain}/","no-such-brand.store.example"]}`,
});

/** The store routes, in the order docs.md and the OpenAPI description list them. */
export const storeRoutes: readonly RestRoute[] = [
  searchStores,
  storeFacets,
  compareStores,
  lookupStores,
  getStore,
  listStoreProducts,
  listStoreHistory,
  getStoreTraffic,
  listStoreApps,
];
