// Contract tests of the Products routes on the known catalog, through the real HTTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED } from '../support/catalog-fixture.ts';
import { openRestApp, type RestApp } from './support/rest-app.ts';

const handles = (body: { data: Array<{ handle: string }> }) =>
  body.data.map((product) => product.handle);
const subjects = (body: { data: Array<{ subject: string | null }> }) =>
  body.data.map((change) => change.subject);

describe('Products routes', () => {
  let rest: RestApp;
  beforeAll(async () => {
    rest = await openRestApp({ fixture: true });
  });
  afterAll(async () => {
    await rest?.close();
  });

  describe('GET /v1/products', () => {
    it('refuses a search without any filter with bad_request naming the filters', async () => {
      const res = await rest.get('/v1/products');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: {
          code: 'bad_request',
          message: expect.any(String),
          details: {
            parameter: 'q|isBestSeller|priceMin|priceMax',
            rule: 'at least one filter is required',
          },
        },
      });
      expect((await rest.get('/v1/products?limit=5')).status).toBe(400);
    });

    it('finds best sellers by rank and a price range cheapest first, in the list envelope', async () => {
      const best = await rest.get('/v1/products?isBestSeller=true');
      expect(best.status).toBe(200);
      expect(handles(best.body)).toEqual(EXPECTED.bestSellers);
      expect(best.body.page).toEqual({ limit: 20, offset: 0, count: 5, hasMore: false, total: 5 });
      const priced = await rest.get('/v1/products?priceMin=20&priceMax=40');
      expect(handles(priced.body)).toEqual(EXPECTED.priced20to40);
      const page = await rest.get('/v1/products?isBestSeller=true&limit=2&offset=2');
      expect(handles(page.body)).toEqual(EXPECTED.bestSellers.slice(2, 4));
      expect(page.body.page).toEqual({ limit: 2, offset: 2, count: 2, hasMore: true, total: 5 });
    });

    it('searches titles with q', async () => {
      const res = await rest.get('/v1/products?q=hoodie');
      // the one hoodie of the fixture, and none of the tees, serums or boots
      expect(handles(res.body)).toEqual(['classic-hoodie']);
      expect(res.body.page).toMatchObject({ count: 1, total: 1, hasMore: false });
    });

    it('rejects prices that are not plain finite numbers and an inverted range', async () => {
      for (const [query, parameter] of [
        ['priceMin=1e2', 'priceMin'],
        ['priceMax=Infinity', 'priceMax'],
        ['priceMin=-5', 'priceMin'],
        ['priceMin=50&priceMax=10', 'priceMin'],
        ['isBestSeller=TRUE', 'isBestSeller'],
        ['q=hoodie&limit=101', 'limit'],
        ['q=hoodie&offset=-1', 'offset'],
      ]) {
        const res = await rest.get(`/v1/products?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'bad_request', details: { parameter } });
      }
    });
  });

  describe('GET /v1/products/{domain}/{handle}', () => {
    it('returns one product; the currency is USD when the store states none', async () => {
      const res = await rest.get('/v1/products/acme-apparel.com/classic-hoodie');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        domain: 'acme-apparel.com',
        handle: 'classic-hoodie',
        title: 'Classic Hoodie',
        price: 59,
        currency: 'USD',
        isBestSeller: true,
        bestSellerRank: 1,
      });
      const eur = await rest.get(
        `/v1/products/${encodeURIComponent('https://www.berlin-boots.de')}/chelsea-boot`,
      );
      expect(eur.body).toMatchObject({ domain: 'berlin-boots.de', price: 149, currency: 'EUR' });
    });

    it('answers an unknown product with not_found naming domain and handle', async () => {
      const res = await rest.get('/v1/products/acme-apparel.com/no-such-product');
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({
        code: 'not_found',
        details: { domain: 'acme-apparel.com', handle: 'no-such-product' },
      });
    });
  });

  describe('GET /v1/products/changes', () => {
    it('lists product changes newest first', async () => {
      const res = await rest.get('/v1/products/changes');
      expect(res.status).toBe(200);
      expect(subjects(res.body)).toEqual(EXPECTED.productChanges);
      expect(res.body.page.total).toBe(EXPECTED.productChanges.length);
      expect(res.body.data.every((change: { entity: string }) => change.entity === 'product')).toBe(
        true,
      );
    });

    it('filters on change type, minimum price change, day and store', async () => {
      const drops = await rest.get(
        '/v1/products/changes?changeType=price_decrease&minPriceChangePct=15',
      );
      expect(subjects(drops.body)).toEqual(EXPECTED.bigPriceDrops);
      const since = await rest.get('/v1/products/changes?since=2025-12-21');
      expect(subjects(since.body)).toEqual(['fidget-cube', 'led-strip-lights', 'canvas-tote']);
      const acme = await rest.get('/v1/products/changes?domain=acme-apparel.com');
      expect(subjects(acme.body)).toEqual(['canvas-tote', 'classic-hoodie']);
    });

    it('rejects unknown change types and impossible dates', async () => {
      for (const [query, parameter] of [
        ['changeType=price_drop', 'changeType'],
        ['since=2025-02-30', 'since'],
        ['since=yesterday', 'since'],
        ['minPriceChangePct=ten', 'minPriceChangePct'],
      ]) {
        const res = await rest.get(`/v1/products/changes?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'bad_request', details: { parameter } });
      }
    });
  });
});
