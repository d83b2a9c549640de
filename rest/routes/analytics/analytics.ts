import { z } from 'zod';
import {
  GetAnalyticsOverviewDocument,
  ListCountryStatsDocument,
  ListMoversDocument,
  ListVerticalStatsDocument,
  ListAppRankingDocument,
} from '../../generated/operations.ts';
import { connectionArgs, listEnvelope } from '../../pagination.ts';
import { fromGraphqlEnum, toGraphqlEnum } from '../../../src/graphql/enums.ts';
import { enumParam, numberParam, paginationParams, textParam } from '../../params.ts';
import { defineRoute, noPathParams, noQuery, type RestRoute } from '../../route.ts';
import { DateTime, listOf, StoreCard, App } from '../../shapes.ts';
import { SEEDED } from '../../../src/seed/seeded-catalog.ts';

export const VerticalStat = z
  .strictObject({
    vertical: z.string(),
    stores: z.number().int(),
    monthlyRevenueUsd: z
      .number()
      .meta({ description: 'Sum of the high ends of the modeled revenue bands, USD.' }),
    monthlyVisits: z.number().meta({ description: 'Sum of modeled monthly visits.' }),
    adSpendUsd: z.number().meta({ description: 'Sum of modeled monthly ad spend, USD.' }),
  })
  .meta({ id: 'VerticalStat' });

export const CountryStat = z
  .strictObject({
    countryCode: z.string(),
    stores: z.number().int(),
    monthlyRevenueUsd: z
      .number()
      .meta({ description: 'Sum of the high ends of the modeled revenue bands, USD.' }),
    monthlyVisits: z.number().meta({ description: 'Sum of modeled monthly visits.' }),
  })
  .meta({ id: 'CountryStat' });

export const AnalyticsOverview = z
  .strictObject({
    stores: z.number().int(),
    productsTracked: z.number().int(),
    appsTracked: z.number().int(),
    storesWithTraffic: z
      .number()
      .int()
      .meta({ description: 'Stores with a third-party traffic observation.' }),
    dropshippers: z.number().int().meta({ description: 'Stores classified as dropshippers.' }),
    averages: z.strictObject({
      monthlyVisits: z.number(),
      monthlyRevenueUsdHigh: z
        .number()
        .meta({ description: 'Mean high end of the modeled revenue band, USD.' }),
      serviceRating: z.number(),
    }),
    topVerticals: z
      .array(VerticalStat)
      .meta({ description: 'The 5 verticals with the most stores.' }),
    topCountries: z
      .array(CountryStat)
      .meta({ description: 'The 5 countries with the most stores.' }),
    generatedAt: DateTime,
  })
  .meta({
    id: 'AnalyticsOverview',
    description: 'Coverage counts, averages, top verticals and countries.',
  });

export const MOVER_METRICS = ['visits', 'revenue'] as const;
export const MOVER_DIRECTIONS = ['up', 'down'] as const;

export const Mover = z
  .strictObject({
    store: StoreCard,
    metric: z.enum(MOVER_METRICS),
    changePct: z.number().meta({ description: 'Signed change over 30 days, percent.' }),
    current: z
      .number()
      .meta({ description: 'Current modeled value (visits, or revenue band high end in USD).' }),
    previous: z.number().meta({ description: 'The value 30 days earlier.' }),
  })
  .meta({ id: 'Mover' });

export const VerticalStatList = listOf(
  VerticalStat,
  'VerticalStatList',
  'A page of verticals, most stores first.',
);
export const CountryStatList = listOf(
  CountryStat,
  'CountryStatList',
  'A page of countries, most stores first.',
);
export const MoverList = listOf(Mover, 'MoverList', 'A page of movers, largest change first.');

const Share = z.number().nullable();

export const AppRank = z
  .strictObject({
    app: App,
    installBase: z.number().int().meta({ description: 'Catalog stores running the app now.' }),
    share: Share.meta({
      description: 'installBase / the catalog stores observed, 0 to 1; null on an empty catalog.',
    }),
    installs90d: z.number().int().meta({
      description: 'Stores seen installing the app over the last 90 UTC days, today included.',
    }),
    uninstalls90d: z
      .number()
      .int()
      .meta({ description: 'Stores first seen without it over the same days.' }),
    netChange90d: z.number().int().meta({ description: 'installs90d - uninstalls90d.' }),
  })
  .meta({
    id: 'AppRank',
    description: 'An app of a category with its install base and 90-day net change.',
  });

export const AppRankList = listOf(
  AppRank,
  'AppRankList',
  'A page of apps, largest install base first.',
);

const COHORT_HINT =
  'For a country, vertical or category breakdown of a filtered cohort, use GET /v1/stores with groupBy.';

export const getAnalyticsOverview = defineRoute({
  operationId: 'getAnalyticsOverview',
  method: 'GET',
  path: '/v1/analytics/overview',
  tag: 'Analytics',
  summary: 'Coverage overview',
  description:
    'Coverage counts, catalog-wide averages, and the top 5 verticals and countries by store count.',
  document: GetAnalyticsOverviewDocument,
  pathParams: noPathParams,
  query: noQuery,
  canBeNotFound: false,
  variables: () => ({}),
  response: AnalyticsOverview,
  respond: (data) => data.analyticsOverview,
  example: '/v1/analytics/overview',
});

export const listVerticalStats = defineRoute({
  operationId: 'listVerticalStats',
  method: 'GET',
  path: '/v1/analytics/verticals',
  tag: 'Analytics',
  summary: 'Market size by vertical',
  description: `Store count and modeled revenue, visits and ad spend per vertical, most stores first. ${COHORT_HINT}`,
  document: ListVerticalStatsDocument,
  pathParams: noPathParams,
  query: z.strictObject(paginationParams()),
  canBeNotFound: false,
  variables: (p) => connectionArgs(p),
  response: VerticalStatList,
  respond: (data, p) => listEnvelope(data.verticalStats, p),
  example: '/v1/analytics/verticals?limit=10',
});

export const listCountryStats = defineRoute({
  operationId: 'listCountryStats',
  method: 'GET',
  path: '/v1/analytics/countries',
  tag: 'Analytics',
  summary: 'Market size by country',
  description: `Unfiltered market size by country, or by country inside one vertical; most stores first. ${COHORT_HINT}`,
  document: ListCountryStatsDocument,
  pathParams: noPathParams,
  query: z.strictObject({
    vertical: textParam()
      .optional()
      .meta({ description: 'Only stores of this vertical (case-insensitive).' }),
    ...paginationParams(),
  }),
  canBeNotFound: false,
  variables: (p) => ({ vertical: p.vertical, ...connectionArgs(p) }),
  response: CountryStatList,
  respond: (data, p) => listEnvelope(data.countryStats, p),
  example: `/v1/analytics/countries?vertical=${encodeURIComponent(SEEDED.vertical)}`,
});

export const listMovers = defineRoute({
  operationId: 'listMovers',
  method: 'GET',
  path: '/v1/analytics/movers',
  tag: 'Analytics',
  summary: 'Stores growing or shrinking',
  description:
    'Stores whose modeled visits or revenue (band high end) moved most over the last 30 days, in the direction ' +
    'asked, largest change first; metric and direction are required. Figures are modeled, not reported.',
  document: ListMoversDocument,
  pathParams: noPathParams,
  query: z.strictObject({
    metric: enumParam(MOVER_METRICS).meta({ description: 'Which modeled figure moved.' }),
    direction: enumParam(MOVER_DIRECTIONS).meta({ description: 'up = growing, down = shrinking.' }),
    minPct: numberParam({ min: 0 })
      .optional()
      .meta({ description: 'Minimum size of the change in percent (in the direction asked).' }),
    vertical: textParam()
      .optional()
      .meta({ description: 'Only stores of this vertical (case-insensitive).' }),
    ...paginationParams(),
  }),
  canBeNotFound: false,
  variables: (p) => ({
    metric: toGraphqlEnum(p.metric),
    direction: toGraphqlEnum(p.direction),
    minPct: p.minPct,
    vertical: p.vertical,
    ...connectionArgs(p),
  }),
  response: MoverList,
  respond: (data, p) => {
    const page = listEnvelope(data.movers, p);
    return { ...page, data: page.data.map((m) => ({ ...m, metric: fromGraphqlEnum(m.metric) })) };
  },
  example: '/v1/analytics/movers?metric=visits&direction=up&minPct=25',
});

export const listAppRanking = defineRoute({
  operationId: 'listAppRanking',
  method: 'GET',
  path: '/v1/analytics/apps',
  tag: 'Analytics',
  summary: 'The apps of one category by install base',
  description:
    'The apps of an app category (the `category` of GET /v1/apps, e.g. Reviews; case-insensitive), largest ' +
    'install base first, with their share of the catalog stores observed and their net change over the last 90 ' +
    'UTC days (installs90d - uninstalls90d; stores first observed already running an app are not installs). ' +
    'An unknown category answers an empty list, as an unknown vertical does elsewhere.',
  document: ListAppRankingDocument,
  pathParams: noPathParams,
  query: z.strictObject({
    category: textParam(100).meta({
      description: 'App category, case-insensitive.',
      example: 'Reviews',
    }),
    ...paginationParams(),
  }),
  canBeNotFound: false,
  variables: (p) => ({ category: p.category, ...connectionArgs(p) }),
  response: AppRankList,
  respond: (data, p) => listEnvelope(data.appRanking, p),
  example: '/v1/analytics/apps?category=Reviews',
});

/** The analytics routes, in the order docs.md and the OpenAPI description list them. */
export const analyticsRoutes: readonly RestRoute[] = [
  getAnalyticsOverview,
  listVerticalStats,
  listCountryStats,
  listMovers,
  listAppRanking,
];
