// Cross-route rules of /v1: every catalog route is reachable, pages the same way, rejects
// unknown parameters, and unknown paths get the not_found envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogRoutes } from '../../rest/routes/index.ts';
import { openRestApp, type RestApp } from './support/rest-app.ts';

/** A concrete, answerable request for every catalog route on the fixture. */
const CONCRETE: Record<string, string> = {
  searchStores: '/v1/stores',
  storeFacets: '/v1/stores/facets',
  compareStores: '/v1/stores/compare?domains=acme-apparel.com,glow-skin.com',
  getStore: '/v1/stores/acme-apparel.com',
  listStoreProducts: '/v1/stores/acme-apparel.com/products',
  listStoreHistory: '/v1/stores/acme-apparel.com/history',
  getStoreTraffic: '/v1/stores/acme-apparel.com/traffic',
  listStoreApps: '/v1/stores/acme-apparel.com/apps',
  searchProducts: '/v1/products?isBestSeller=true',
  listProductChanges: '/v1/products/changes',
  getProduct: '/v1/products/acme-apparel.com/classic-hoodie',
  listChanges: '/v1/changes',
  getAnalyticsOverview: '/v1/analytics/overview',
  listVerticalStats: '/v1/analytics/verticals',
  listCountryStats: '/v1/analytics/countries',
  listMovers: '/v1/analytics/movers?metric=visits&direction=up',
  listAppRanking: '/v1/analytics/apps?category=Email%20marketing',
  searchApps: '/v1/apps',
  getApp: '/v1/apps/klaviyo',
  listAppStores: '/v1/apps/klaviyo/stores',
  getAppTrend: '/v1/apps/klaviyo/trend',
  getUsage: '/v1/usage',
};

/** the GET routes that read the catalog fixture; the scrape routes (a queue and a worker) are covered in
 *  test/scrapes, the Signals routes (watches of an account, probes of a storefront) in test/signals,
 *  the alert routes (an account's saved searches, matched by observations) in test/alerts,
 *  POST /v1/stores/lookup (a body) in test/stores/store-lookup.test.ts */
const readRoutes = catalogRoutes.filter(
  (route) =>
    route.method === 'GET' &&
    route.tag !== 'Scrapes' &&
    route.tag !== 'Signals' &&
    route.tag !== 'Alerts',
);

const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

describe('every catalog route', () => {
  let rest: RestApp;
  beforeAll(async () => {
    rest = await openRestApp({ fixture: true });
  });
  afterAll(async () => {
    await rest?.close();
  });

  it('has a concrete request in this test', () => {
    expect(Object.keys(CONCRETE).sort()).toEqual(
      readRoutes.map((route) => route.operationId).sort(),
    );
  });

  it.each(readRoutes.map((route) => [route.operationId, route] as const))(
    '%s answers 200 with a documented body',
    async (id) => {
      const res = await rest.get(CONCRETE[id]!);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    },
  );

  it.each(
    readRoutes
      .filter((route) => 'limit' in route.query.shape)
      .map((route) => [route.operationId] as const),
  )(
    '%s pages with limit 1..100 (history 1..180, default 20) and offset >= 0 (default 0)',
    async (id) => {
      const url = CONCRETE[id]!;
      const max = id === 'listStoreHistory' ? 180 : 100;
      const defaults = await rest.get(url);
      expect(defaults.body.page).toMatchObject({ limit: 20, offset: 0 });
      expect((await rest.get(withQuery(url, `limit=${max}`))).body.page.limit).toBe(max);
      const tooMany = await rest.get(withQuery(url, `limit=${max + 1}`));
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error).toMatchObject({
        code: 'bad_request',
        details: { parameter: 'limit' },
      });
      const negative = await rest.get(withQuery(url, 'offset=-1'));
      expect(negative.status).toBe(400);
      expect(negative.body.error).toMatchObject({
        code: 'bad_request',
        details: { parameter: 'offset' },
      });
    },
  );

  it.each(readRoutes.map((route) => [route.operationId] as const))(
    '%s rejects an unknown query parameter by name',
    async (id) => {
      const res = await rest.get(withQuery(CONCRETE[id]!, 'bogusFilter=1'));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'bad_request',
        details: { parameter: 'bogusFilter' },
      });
    },
  );

  it('answers a path that matches no route with the not_found envelope', async () => {
    for (const url of ['/v1/store', '/v1/stores/acme-apparel.com/unknown', '/v2/stores']) {
      const res = await rest.get(url);
      expect(res.status, url).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'not_found', details: { path: url } });
    }
  });
});
