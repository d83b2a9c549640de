import { z } from 'zod';
import { DateTime, Day, Month, Page, PercentBand, RevenueBand, listOf, orNull } from './common.ts';
import { App } from './apps.ts';

const share = (what: string) =>
  z
    .number()
    .min(0)
    .max(1)
    .meta({ description: `Share of visits from ${what}, 0 to 1.` });

export const TrafficMix = z
  .strictObject({
    month: Month,
    organic: share('organic search'),
    paid: share('paid search and ads'),
    social: share('social networks'),
    direct: share('direct visits'),
    referral: share('referring sites'),
    source: z.string().meta({ description: 'Third-party provider of the mix.' }),
  })
  .meta({
    id: 'TrafficMix',
    description:
      'Latest third-party traffic mix (modeled estimates by the provider named in source).',
  });

const cardFields = {
  domain: z
    .string()
    .meta({ description: "The store's canonical domain. Fetch the profile with it." }),
  monthlyVisits: z.number().int().min(0).meta({ description: 'Modeled monthly visits.' }),
  monthlyRevenueUsd: RevenueBand,
  isDropshipper: z
    .boolean()
    .meta({ description: 'Classifier output (classified as dropshipper), not a legal fact.' }),
  serviceRating: z.number().min(0).max(100).meta({
    description: "The service's own rating, 0 to 100; traffic is one input, not a hard fail.",
  }),
  serviceGrade: z.string().meta({ description: 'Letter bucket of serviceRating.' }),
  vertical: z
    .string()
    .nullable()
    .meta({ description: 'Category name used by the vertical filter; null when unclassified.' }),
  countryCode: z.string().nullable().meta({
    description: 'ISO 3166-1 alpha-2 code used by the countryCode filter; null when unknown.',
  }),
  traffic: z
    .strictObject({ latest: orNull(TrafficMix) })
    .meta({ description: 'traffic.latest is null when no third-party traffic data was observed.' }),
  sources: z.array(z.string()).meta({
    description:
      'Backends that contributed to this object, each `<backend>:<table_or_collection>`.',
  }),
};

export const StoreCard = z.strictObject(cardFields).meta({
  id: 'StoreCard',
  description: 'The store card: the same fields in every list of stores.',
});

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

export const FilterSuggestion = z
  .strictObject({
    parameter: z.string().meta({
      description:
        'The filter: vertical, industry, category, countryCode, theme, tld, app, anyApp, notApp, installedApp or uninstalledApp.',
    }),
    value: z.string().meta({ description: 'The value given, which no store of the catalog has.' }),
    nearest: z.array(z.string()).meta({
      description: "Up to 3 of the catalog's values, closest first; empty when none is near.",
    }),
  })
  .meta({
    id: 'FilterSuggestion',
    description: 'A filter value no store has (it matches nothing) and the nearest valid values.',
  });

const suggestions = z.array(FilterSuggestion).meta({
  description:
    'Present when a filter value names nothing in the catalog: the nearest valid values (GET /v1/stores/facets lists them all).',
});

export const StoreList = z
  .strictObject({
    data: z.array(StoreCard),
    page: Page,
    meta: z.strictObject({ suggestions }).optional(),
  })
  .meta({ id: 'StoreList', description: 'A page of store cards.' });

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
