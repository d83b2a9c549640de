// The shapes more than one route group answers with: the page envelope and its parts, and the
// catalog's entities (store card, app, product, change). Every schema here is the documented shape
// (OpenAPI is generated from it) and the compile-time target of a route's response mapping; a shape
// only one group answers with lives in that group's route file.
import { z } from 'zod';

export const Page = z
  .strictObject({
    limit: z
      .number()
      .int()
      .meta({ description: 'The page size asked for (the default 20 when not given).' }),
    offset: z.number().int().meta({ description: 'Items skipped before this page.' }),
    count: z.number().int().meta({ description: 'Items in this page.' }),
    hasMore: z.boolean().meta({ description: 'Whether a further page exists. Stop when false.' }),
    total: z
      .number()
      .int()
      .meta({
        description:
          'Items matching the request across all pages: exact up to 10,000, an estimate beyond (hasMore is always exact). ' +
          'GET /v1/stores without q answers it exactly at any size when its filters are ones the catalog keeps counts of ' +
          '(see the decisions in docs.md).',
      }),
  })
  .meta({ id: 'Page' });

export function listOf<T extends z.ZodType>(item: T, id: string, description: string) {
  return z.strictObject({ data: z.array(item), page: Page }).meta({ id, description });
}

export const RevenueBand = z
  .strictObject({
    low: z.number().meta({ description: 'Low end, USD per month.' }),
    high: z.number().meta({ description: 'High end, USD per month.' }),
  })
  .meta({
    id: 'RevenueBand',
    description:
      'Modeled monthly revenue band in USD: a model output, not merchant-reported sales.',
  });

export const PercentBand = z
  .strictObject({ low: z.number(), high: z.number() })
  .meta({ id: 'PercentBand', description: 'Modeled band in percent.' });

export const DateTime = z.string().meta({ format: 'date-time', description: 'ISO 8601, UTC.' });
export const Day = z
  .string()
  .meta({ format: 'date', description: 'Calendar day YYYY-MM-DD (UTC).' });
export const Month = z.string().meta({ description: 'Month as its first day, YYYY-MM-DD (UTC).' });

/** Nullable use of a named (component) schema. `.nullable()` on it would make the component itself
 *  nullable everywhere in the OpenAPI output; a union keeps the component intact. */
export const orNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);

export const App = z
  .strictObject({
    slug: z.string().meta({ description: "Identifier from the platform's app store." }),
    name: z.string(),
    developer: z.string().nullable(),
    category: z.string().nullable(),
    pricing: z.string().nullable(),
    rating: z.number().nullable(),
    reviewCount: z.number().int(),
    appStoreUrl: z.string().nullable(),
    installCount: z
      .number()
      .int()
      .meta({ description: 'Catalog stores observed running the app.' }),
  })
  .meta({ id: 'App' });

export const AppList = listOf(App, 'AppList', 'A page of apps.');

export const Product = z
  .strictObject({
    domain: z
      .string()
      .meta({ description: 'Domain of the store selling the product; with handle, its identity.' }),
    handle: z.string(),
    title: z.string(),
    vendor: z.string().nullable(),
    productType: z.string().nullable(),
    price: z.number().meta({ description: 'Price in `currency`.' }),
    compareAtPrice: z.number().nullable(),
    currency: z
      .string()
      .meta({ description: "The product's currency; USD when the store did not state one." }),
    isBestSeller: z.boolean(),
    bestSellerRank: z.number().int().nullable(),
    available: z.boolean(),
    variantCount: z.number().int(),
    imageUrl: z.string().nullable(),
    publishedAt: DateTime.nullable(),
    updatedAt: DateTime,
  })
  .meta({ id: 'Product' });

export const ProductList = listOf(Product, 'ProductList', 'A page of products.');

export const CHANGE_ENTITIES = ['product', 'app', 'store'] as const;
export const PRODUCT_CHANGE_TYPES = [
  'price_decrease',
  'price_increase',
  'new_sku',
  'removed_sku',
] as const;

export const Change = z
  .strictObject({
    id: z.string(),
    entity: z.enum(CHANGE_ENTITIES),
    changeType: z.string().meta({
      description:
        `product: ${PRODUCT_CHANGE_TYPES.join(', ')}; app: app_installed, app_uninstalled; store: what changed: ` +
        'theme_changed, revenue_band_changed (the modeled monthly revenue band moved; oldValue and newValue "low-high" ' +
        'USD, changePct its 30-day change) or domain_changed (the store moved to a new host).',
    }),
    domain: z.string(),
    subject: z
      .string()
      .nullable()
      .meta({ description: 'What changed inside the store: a product handle or an app slug.' }),
    summary: z.string().meta({ description: 'One-line human summary.' }),
    oldValue: z.string().nullable(),
    newValue: z.string().nullable(),
    changePct: z
      .number()
      .nullable()
      .meta({ description: 'Relative change in percent, when numeric.' }),
    currency: z.string().nullable().meta({
      description:
        "ISO 4217 currency of a product change's oldValue and newValue (prices): the store's own; null for app and store changes.",
    }),
    detectedAt: DateTime.meta({ description: 'When the scrape that saw the difference ran.' }),
  })
  .meta({
    id: 'Change',
    description: 'A difference between two observations (scrapes), not a complete event stream.',
  });

export const ChangeList = listOf(Change, 'ChangeList', 'A page of change records, newest first.');

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

export const cardFields = {
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

export const suggestions = z.array(FilterSuggestion).meta({
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
