import { z } from 'zod';
import {
  GetAppDocument,
  ListAppStoresDocument,
  SearchAppsDocument,
  GetAppTrendDocument,
} from '../../generated/operations.ts';
import { connectionArgs, listEnvelope } from '../../pagination.ts';
import { paginationParams, textParam, integerParam } from '../../params.ts';
import { defineRoute, noPathParams, noQuery, type RestRoute } from '../../route.ts';
import { AppList, StoreList, App, StoreCard, Month } from '../../shapes.ts';
import { SEEDED } from '../../../src/seed/seeded-catalog.ts';
import { TREND_DEFAULT_MONTHS, TREND_MAX_MONTHS } from '../../../src/apps/app-trend.sql.ts';

/** How many of the busiest stores running an app GET /v1/apps/{slug} shows. */
export const INSTALL_BASE_SAMPLE_SIZE = 10;

export const AppDetail = z
  .strictObject({
    ...App.shape,
    installBaseSample: z.array(StoreCard).meta({
      description:
        `Observed install-base sample: up to ${INSTALL_BASE_SAMPLE_SIZE} stores running the app, busiest first. ` +
        'The whole list is GET /v1/apps/{slug}/stores.',
    }),
  })
  .meta({ id: 'AppDetail', description: 'App catalog row plus the observed install-base sample.' });

const Share = z.number().nullable();

export const AppTrendMonth = z
  .strictObject({
    month: Month,
    installs: z.number().int().meta({
      description:
        'Stores seen installing the app this month: an earlier observation saw them without it.',
    }),
    newlyObserved: z.number().int().meta({
      description:
        'Stores first observed this month already running the app: they join the install base, not the installs.',
    }),
    uninstalls: z.number().int().meta({
      description: 'Stores first seen without the app this month after running it.',
    }),
    net: z.number().int().meta({ description: 'installs - uninstalls.' }),
    installBase: z
      .number()
      .int()
      .meta({
        description:
          "Stores running the app at the month's end (now, for the current month): the previous month's " +
          'installBase + installs + newlyObserved - uninstalls.',
      }),
    observedStores: z.number().int().meta({
      description:
        "Catalog stores first seen by the month's end, under the same vertical and country.",
    }),
    share: Share.meta({
      description: 'installBase / observedStores, 0 to 1; null while no store is observed.',
    }),
  })
  .meta({
    id: 'AppTrendMonth',
    description: 'One calendar month (UTC) of an app on the observed catalog.',
  });

export const AppTrend = z
  .strictObject({
    app: App,
    vertical: z.string().nullable().meta({
      description: 'The vertical the counts are narrowed to, as asked; null for every vertical.',
    }),
    countryCode: z.string().nullable().meta({
      description: 'The country the counts are narrowed to (upper case); null for every country.',
    }),
    months: z
      .array(AppTrendMonth)
      .meta({ description: 'Oldest month first, the current one last.' }),
  })
  .meta({ id: 'AppTrend', description: "An app's install trend, month by month." });

const slugPath = z.strictObject({
  slug: textParam().meta({
    description: "The app's slug in the platform's app store.",
    example: 'klaviyo-email-marketing',
  }),
});

export const searchApps = defineRoute({
  operationId: 'searchApps',
  method: 'GET',
  path: '/v1/apps',
  tag: 'Apps',
  summary: 'Apps matching a query',
  description:
    'With q: the apps whose names match, closest first. Without q: all apps, most installs first.',
  document: SearchAppsDocument,
  pathParams: noPathParams,
  query: z.strictObject({
    q: textParam().optional().meta({ description: 'App name, fuzzy.' }),
    ...paginationParams(),
  }),
  canBeNotFound: false,
  variables: (p) => ({ q: p.q, ...connectionArgs(p) }),
  response: AppList,
  respond: (data, p) => listEnvelope(data.apps, p),
  example: '/v1/apps?q=reviews',
});

export const getApp = defineRoute({
  operationId: 'getApp',
  method: 'GET',
  path: '/v1/apps/{slug}',
  tag: 'Apps',
  summary: 'An app with its observed install-base sample',
  description:
    `The app catalog row plus \`installBaseSample\`: up to ${INSTALL_BASE_SAMPLE_SIZE} store cards of stores ` +
    'observed running it, most visits first (page through all of them with GET /v1/apps/{slug}/stores). ' +
    'installCount counts the catalog stores observed running the app. An app that leaves no trace on a ' +
    'storefront (most dropshipping, print-on-demand and shipping apps work from the admin only) is never ' +
    'detected by a scrape: the decision "App detection and apps not detectable from a storefront" lists them.',
  document: GetAppDocument,
  pathParams: slugPath,
  query: noQuery,
  canBeNotFound: true,
  variables: (p) => ({ slug: p.slug, sampleSize: INSTALL_BASE_SAMPLE_SIZE }),
  response: AppDetail,
  respond: (data) => {
    const { stores, ...app } = data.app;
    return { ...app, installBaseSample: stores.edges.map((edge) => edge.node) };
  },
  example: `/v1/apps/${SEEDED.appSlug}`,
});

export const listAppStores = defineRoute({
  operationId: 'listAppStores',
  exportable: true,
  method: 'GET',
  path: '/v1/apps/{slug}/stores',
  tag: 'Apps',
  summary: 'Stores observed running an app',
  description: 'Store cards, most monthly visits first.',
  document: ListAppStoresDocument,
  pathParams: slugPath,
  query: z.strictObject(paginationParams()),
  canBeNotFound: true,
  variables: (p) => ({ slug: p.slug, ...connectionArgs(p) }),
  response: StoreList,
  respond: (data, p) => listEnvelope(data.app.stores, p),
  example: `/v1/apps/${SEEDED.appSlug}/stores?limit=50`,
});

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

/** The app routes, in the order docs.md and the OpenAPI description list them. */
export const appRoutes: readonly RestRoute[] = [searchApps, getApp, listAppStores, getAppTrend];
