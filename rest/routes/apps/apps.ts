import { z } from 'zod';
import {
  GetAppDocument,
  ListAppStoresDocument,
  SearchAppsDocument,
} from '../../generated/operations.ts';
import { connectionArgs, listEnvelope } from '../../pagination.ts';
import { paginationParams, textParam } from '../../params.ts';
import { defineRoute, noPathParams, noQuery } from '../../route.ts';
import { AppDetail } from '../../schemas/app-detail.ts';
import { AppList, INSTALL_BASE_SAMPLE_SIZE } from '../../schemas/apps.ts';
import { StoreList } from '../../schemas/stores.ts';
import { SEEDED } from '../../../src/seed/seeded-catalog.ts';

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
    'installCount counts the catalog stores observed running the app.',
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
