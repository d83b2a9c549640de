// analyticsOverview, verticalStats, countryStats and movers on the known catalog.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { EXPECTED, loadCatalogFixture } from '../support/catalog-fixture.ts';
import { failure, query } from '../graphql/support/execute.ts';

let t: CatalogTestServices;

beforeAll(async () => {
  t = await createTestServices();
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
});
afterAll(() => t?.close());

const nodes = (connection: any) => connection.edges.map((e: any) => e.node);

describe('analytics', () => {
  it('gives coverage counts, averages and the top verticals and countries', async () => {
    const { analyticsOverview: o } = await query(
      t.services,
      `{ analyticsOverview {
      stores productsTracked appsTracked storesWithTraffic dropshippers generatedAt
      averages { monthlyVisits monthlyRevenueUsdHigh serviceRating }
      topVerticals { vertical stores } topCountries { countryCode stores } } }`,
    );
    const e = EXPECTED.overview;
    expect(o).toMatchObject({
      stores: e.stores,
      productsTracked: e.productsTracked,
      appsTracked: e.appsTracked,
      storesWithTraffic: e.storesWithTraffic,
      dropshippers: e.dropshippers,
    });
    expect(o.averages.monthlyVisits).toBeCloseTo(e.averageMonthlyVisits, 6);
    expect(o.averages.monthlyRevenueUsdHigh).toBeCloseTo(e.averageRevenueHigh, 6);
    expect(o.averages.serviceRating).toBeCloseTo(e.averageServiceRating, 6);
    expect(o.topVerticals.map((v: any) => v.vertical)).toEqual(['Apparel', 'Beauty', 'Home']);
    expect(o.topCountries.map((c: any) => c.countryCode)).toEqual(['US', 'GB', 'DE']);
    expect(Date.now() - Date.parse(o.generatedAt)).toBeLessThan(60_000);
  });

  it('sums modeled figures by vertical', async () => {
    const { verticalStats } = await query(
      t.services,
      `{ verticalStats { totalCount edges { node { vertical stores monthlyRevenueUsd monthlyVisits adSpendUsd } } } }`,
    );
    expect(nodes(verticalStats)).toEqual(EXPECTED.verticalStats);
    expect(verticalStats.totalCount).toBe(3);
  });

  it('sizes markets by country, overall and inside one vertical', async () => {
    const all = await query(
      t.services,
      `{ countryStats { edges { node { countryCode stores monthlyRevenueUsd monthlyVisits } } } }`,
    );
    expect(nodes(all.countryStats)).toEqual(EXPECTED.countryStats);
    const beauty = await query(
      t.services,
      `{ countryStats(vertical: "beauty", first: 2) { totalCount pageInfo { hasNextPage } edges { node { countryCode stores monthlyRevenueUsd monthlyVisits } } } }`,
    );
    expect(nodes(beauty.countryStats)).toEqual(EXPECTED.beautyCountryStats.slice(0, 2));
    expect(beauty.countryStats).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: true } });
  });

  it('ranks movers up by visits with current and previous figures', async () => {
    const { movers } = await query(
      t.services,
      `{ movers(metric: VISITS, direction: UP, minPct: 20) {
      totalCount edges { node { metric changePct current previous store { domain } } } } }`,
    );
    expect(movers.totalCount).toBe(3);
    expect(nodes(movers)).toEqual(
      EXPECTED.visitMoversUp20.map((m) => ({
        metric: 'VISITS',
        changePct: m.changePct,
        current: m.current,
        previous: m.previous,
        store: { domain: m.domain },
      })),
    );
  });

  it('ranks movers down by revenue, optionally inside one vertical', async () => {
    const down = await query(
      t.services,
      `{ movers(metric: REVENUE, direction: DOWN, minPct: 10) { edges { node { store { domain } } } } }`,
    );
    expect(nodes(down.movers).map((m: any) => m.store.domain)).toEqual(
      EXPECTED.revenueMoversDown10,
    );
    const beautyDown = await query(
      t.services,
      `{ movers(metric: REVENUE, direction: DOWN, vertical: "Beauty") { edges { node { store { domain } } } } }`,
    );
    expect(nodes(beautyDown.movers).map((m: any) => m.store.domain)).toEqual(['quickship-uk.com']);
  });

  it('rejects a negative minPct', async () => {
    const error = await failure(
      t.services,
      `{ movers(metric: VISITS, direction: UP, minPct: -5) { totalCount } }`,
    );
    expect(error).toMatchObject({ code: 'bad_request', details: { parameter: 'minPct' } });
  });
});
