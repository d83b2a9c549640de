// A store's lists under GET /v1/stores/{domain}/: its products, daily history, monthly traffic and
// app stack.
import { z } from 'zod';
import {
  GetStoreTrafficDocument,
  ListStoreAppsDocument,
  ListStoreHistoryDocument,
  ListStoreProductsDocument,
} from '../../generated/operations.ts';
import { connectionArgs, listEnvelope, pageOfList } from '../../pagination.ts';
import { booleanParam, paginationParams } from '../../params.ts';
import { defineRoute, type RestRoute } from '../../route.ts';
import { MAX_HISTORY_DAYS } from '../../../src/graphql/pagination.ts';
import {
  AppList,
  Day,
  Month,
  ProductList,
  RevenueBand,
  StoreList,
  TrafficMix,
  listOf,
  orNull,
} from '../../shapes.ts';
import { SEEDED } from '../../../src/seed/seeded-catalog.ts';
import { domainPath } from './store-profile.ts';

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

/** The store's list routes, in the order docs.md and the OpenAPI description list them. */
export const storeProfileListRoutes: readonly RestRoute[] = [
  listStoreProducts,
  listStoreHistory,
  getStoreTraffic,
  listStoreApps,
];
