import { z } from 'zod';
import { GetAppTrendDocument, ListAppRankingDocument } from '../../generated/operations.ts';
import { connectionArgs, listEnvelope } from '../../pagination.ts';
import { integerParam, paginationParams, textParam } from '../../params.ts';
import { defineRoute, noPathParams } from '../../route.ts';
import { AppRankList, AppTrend } from '../../schemas/app-trends.ts';
import { SEEDED } from '../../../src/seed/seeded-catalog.ts';
import { TREND_DEFAULT_MONTHS, TREND_MAX_MONTHS } from '../../../src/apps/app-trend.sql.ts';

const OBSERVED =
  "Dates are the observations': an install counts in the month of the observation that first saw the app " +
  'running on the store, an uninstall in that of the first observation that saw it gone. A store already running ' +
  'the app when the catalog first observed it counts in newlyObserved, not in installs, so that installBase = ' +
  "the previous month's installBase + installs + newlyObserved - uninstalls. Counts are kept as observations " +
  'arrive (exact, no delay); a store counts under its current vertical and country.';

export const getAppTrend = defineRoute({
  operationId: 'getAppTrend',
  method: 'GET',
  path: '/v1/apps/{slug}/trend',
  tag: 'Apps',
  summary: "An app's installs, uninstalls, install base and share per month",
  description:
    `The last \`months\` calendar months (UTC), oldest first, the current month last (counted up to now). ` +
    "share = installBase / observedStores, the catalog stores first seen by the month's end under the same " +
    `vertical and countryCode filter. ${OBSERVED} An unknown vertical or country answers months of zeros.`,
  document: GetAppTrendDocument,
  pathParams: z.strictObject({
    slug: textParam().meta({
      description: "The app's slug in the platform's app store.",
      example: SEEDED.appSlug,
    }),
  }),
  query: z.strictObject({
    months: integerParam({ min: 1, max: TREND_MAX_MONTHS })
      .default(TREND_DEFAULT_MONTHS)
      .meta({ description: `Months, 1 to ${TREND_MAX_MONTHS}.` }),
    vertical: textParam(100)
      .optional()
      .meta({ description: 'Only stores of this vertical (case-insensitive).' }),
    countryCode: z
      .string()
      .regex(/^[A-Za-z]{2}$/, { error: 'must be an ISO 3166-1 alpha-2 country code' })
      .optional()
      .meta({ description: 'Only stores of this country: ISO 3166-1 alpha-2, case-insensitive.' }),
  }),
  canBeNotFound: true,
  variables: (p) => ({
    slug: p.slug,
    months: p.months,
    vertical: p.vertical,
    countryCode: p.countryCode,
  }),
  response: AppTrend,
  respond: (data) => data.appTrend,
  example: `/v1/apps/${SEEDED.appSlug}/trend?months=12`,
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
