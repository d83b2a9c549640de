// Contract tests of the Analytics routes on the known catalog, through the real HTTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED } from '../support/catalog-fixture.ts';
import { openRestApp, type RestApp } from './support/rest-app.ts';

describe('Analytics routes', () => {
  let rest: RestApp;
  beforeAll(async () => {
    rest = await openRestApp({ fixture: true });
  });
  afterAll(async () => {
    await rest?.close();
  });

  it('GET /v1/analytics/overview returns coverage counts, averages and the top verticals and countries', async () => {
    const res = await rest.get('/v1/analytics/overview');
    expect(res.status).toBe(200);
    const { overview } = EXPECTED;
    expect(res.body).toMatchObject({
      stores: overview.stores,
      productsTracked: overview.productsTracked,
      appsTracked: overview.appsTracked,
      storesWithTraffic: overview.storesWithTraffic,
      dropshippers: overview.dropshippers,
    });
    expect(res.body.averages.monthlyVisits).toBeCloseTo(overview.averageMonthlyVisits, 6);
    expect(res.body.averages.monthlyRevenueUsdHigh).toBeCloseTo(overview.averageRevenueHigh, 6);
    expect(res.body.averages.serviceRating).toBeCloseTo(overview.averageServiceRating, 6);
    expect(res.body.topVerticals).toEqual(EXPECTED.verticalStats);
    expect(res.body.topCountries).toEqual(EXPECTED.countryStats);
    expect((await rest.get('/v1/analytics/overview?limit=5')).status).toBe(400);
  });

  it('GET /v1/analytics/verticals pages the market size by vertical', async () => {
    const res = await rest.get('/v1/analytics/verticals');
    expect(res.body).toEqual({
      data: EXPECTED.verticalStats,
      page: { limit: 20, offset: 0, count: 3, hasMore: false, total: 3 },
    });
    const page = await rest.get('/v1/analytics/verticals?limit=1&offset=1');
    expect(page.body).toEqual({
      data: [EXPECTED.verticalStats[1]],
      page: { limit: 1, offset: 1, count: 1, hasMore: true, total: 3 },
    });
  });

  it('GET /v1/analytics/countries gives the whole market or one vertical', async () => {
    expect((await rest.get('/v1/analytics/countries')).body.data).toEqual(EXPECTED.countryStats);
    expect((await rest.get('/v1/analytics/countries?vertical=beauty')).body.data).toEqual(
      EXPECTED.beautyCountryStats,
    );
  });

  it('GET /v1/analytics/movers lists growing or shrinking stores with store cards', async () => {
    const up = await rest.get('/v1/analytics/movers?metric=visits&direction=up&minPct=20');
    expect(up.status).toBe(200);
    expect(up.body.page.total).toBe(EXPECTED.visitMoversUp20.length);
    expect(up.body.data.map((m: { store: { domain: string } }) => m.store.domain)).toEqual(
      EXPECTED.visitMoversUp20.map((m) => m.domain),
    );
    for (const [i, expected] of EXPECTED.visitMoversUp20.entries()) {
      expect(up.body.data[i].metric).toBe('visits');
      expect(up.body.data[i].changePct).toBeCloseTo(expected.changePct, 6);
      expect(up.body.data[i].current).toBe(expected.current);
      expect(up.body.data[i].previous).toBeCloseTo(expected.previous, 0);
    }
    const down = await rest.get('/v1/analytics/movers?metric=revenue&direction=down&minPct=10');
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    expect(down.body.data.map((m: { store: { domain: string } }) => m.store.domain)).toEqual(
      EXPECTED.revenueMoversDown10,
    );
  });

  it('GET /v1/analytics/movers requires metric and direction', async () => {
    for (const [query, parameter] of [
      ['direction=up', 'metric'],
      ['metric=visits', 'direction'],
      ['metric=sales&direction=up', 'metric'],
      ['metric=visits&direction=up&minPct=-5', 'minPct'],
    ]) {
      const res = await rest.get(`/v1/analytics/movers?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'bad_request', details: { parameter } });
    }
  });
});
