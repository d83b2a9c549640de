// ESLint lints one file: the generated SDL (schema/schema.graphql, written by `npm run codegen`)
// with @graphql-eslint's schema-recommended rules. The code itself is Biome's (biome.jsonc);
// `npm run lint` runs both, as CI does.
import graphql from '@graphql-eslint/eslint-plugin';

/**
 * Object types without an identity of their own, which strict-id-in-types lets go without an
 * `id: ID!`. Every other object type is an entity: it implements Node with a global id.
 */
const WITHOUT_IDENTITY = [
  // pages of a list (Relay's own shapes)
  'PageInfo',
  // figures of one parent, read and cached under it
  'StoreMetrics',
  'StoreModels',
  'ModelExplanation',
  'ModelInput',
  'StoreTraffic',
  'TrafficMix',
  'TrafficPoint',
  'HistoryPoint',
  'StoreObservation',
  'Socials',
  'RevenueBand',
  'PercentBand',
  'AppTrendMonth',
  'TrackedVariant',
  'SignalApp',
  'SignalStats',
  'SignalSales',
  'SignalSalesTotals',
  'SignalDailySales',
  'SignalVariantSales',
  'SignalVariantInventory',
  'AdsOverview',
  'AdsOverviewDay',
  'AdsSalesLift',
  'AdNetworkCounts',
  'AlertMatch',
  // rows of a computed answer: a rollup, a ranking, a count
  'AnalyticsOverview',
  'OverviewAverages',
  'VerticalStat',
  'CountryStat',
  'Mover',
  'AppRank',
  'AppTrend',
  'StoreGroup',
  'GroupMetrics',
  'StoreFacets',
  'FacetValue',
  'FilterSuggestion',
  'StoreComparison',
  'StoreLookup',
  'StoreLookupMatch',
  'Usage',
  'UsageLimit',
  'QuotaBucketUsage',
  // the crawler's live status: a snapshot, re-read every few seconds, never cached by id
  'CrawlerStatus',
  'CrawlerScheduleCounts',
  'CrawlerCandidateCounts',
  'CrawlerWorker',
  'QueueDepth',
  'RecentObservations',
  'ObservationMinute',
  'ObservationOutcomeCount',
  'FreshnessBucket',
  'ObservationPolicy',
  'PopularityTier',
  // answers of a mutation: a receipt around (or instead of) an entity
  'ScrapeOrder',
  'BulkScrapeItem',
  'BulkScrapeError',
  'MintedApiKey',
  'DeletedAlert',
  'DeletedSignal',
  'AdsProbe',
  'AdNetworkProbe',
];

export default [
  {
    files: ['schema/schema.graphql'],
    languageOptions: {
      parser: graphql.parser,
      parserOptions: { graphQLConfig: { schema: 'schema/schema.graphql' } },
    },
    plugins: { '@graphql-eslint': graphql },
    rules: {
      ...graphql.configs['flat/schema-recommended'].rules,
      '@graphql-eslint/strict-id-in-types': [
        'error',
        {
          acceptedIdNames: ['id'],
          acceptedIdTypes: ['ID'],
          exceptions: { types: WITHOUT_IDENTITY, suffixes: ['Connection', 'Edge'] },
        },
      ],
      // off: the names it flags are the domain's own words, not the type's name repeated:
      // App.appStoreUrl (the App Store), Product.productType (the platform's product_type) and
      // Change.changeType / changePct (the REST contract's changeType filter names the field)
      '@graphql-eslint/no-typename-prefix': 'off',
    },
  },
];
