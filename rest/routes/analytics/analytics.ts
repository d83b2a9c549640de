import { z } from 'zod';
import {
  GetAnalyticsOverviewDocument,
  ListCountryStatsDocument,
  ListMoversDocument,
  ListVerticalStatsDocument,
} from '../../generated/operations.ts';
import { connectionArgs, listEnvelope } from '../../pagination.ts';
import { fromGraphqlEnum, toGraphqlEnum } from '../../../src/graphql/enums.ts';
import { enumParam, numberParam, paginationParams, textParam } from '../../params.ts';
import { defineRoute, noPathParams, noQuery } from '../../route.ts';
import {
  AnalyticsOverview,
  CountryStatList,
  MOVER_DIRECTIONS,
  MOVER_METRICS,
  MoverList,
  VerticalStatList,
} from '../../schemas/analytics.ts';
import { SEEDED } from '../../../src/seed/seeded-catalog.ts';

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
