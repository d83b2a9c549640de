// storeGroups: grouped rows over the filtered stores (GET /v1/stores?groupBy=...).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetToCursor } from '@pothos/plugin-relay';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { EXPECTED, loadCatalogFixture } from '../support/catalog-fixture.ts';
import { failure, query } from '../graphql/support/execute.ts';

let t: CatalogTestServices;

beforeAll(async () => {
  t = await createTestServices();
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
});
afterAll(() => t?.close());

const GROUPS = `query($filter: StoreFilter, $groupBy: StoreGrouping!, $groupBy2: StoreGrouping, $groupMetric: GroupMetric, $sort: GroupSort, $first: Int, $after: String) {
  storeGroups(filter: $filter, groupBy: $groupBy, groupBy2: $groupBy2, groupMetric: $groupMetric, sort: $sort, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage }
    edges { node { key parent leaf stores metrics { monthlyRevenueUsd monthlyVisits } } }
  }
}`;

const rows = (result: any) => result.storeGroups.edges.map((e: any) => e.node);

describe('storeGroups', () => {
  it('rolls stores up by country with the median by default, most stores first', async () => {
    const result = await query(t.services, GROUPS, { groupBy: 'COUNTRY_CODE' });
    expect(result.storeGroups.totalCount).toBe(3);
    expect(rows(result)).toEqual(
      EXPECTED.countryGroups.map((g) => ({
        key: g.key,
        parent: g.key,
        leaf: null,
        stores: g.stores,
        metrics: { monthlyRevenueUsd: g.medianRevenue, monthlyVisits: g.medianVisits },
      })),
    );
  });

  it.each([
    ['MEAN', 'meanRevenue'],
    ['MAX', 'maxRevenue'],
    ['MIN', 'minRevenue'],
  ] as const)(
    'aggregates the revenue band high end with groupMetric %s',
    async (groupMetric, field) => {
      const result = await query(t.services, GROUPS, { groupBy: 'COUNTRY_CODE', groupMetric });
      expect(rows(result).map((r: any) => r.metrics.monthlyRevenueUsd)).toEqual(
        EXPECTED.countryGroups.map((g) => g[field]),
      );
    },
  );

  it('sorts groups by the metric with sort: REVENUE', async () => {
    const result = await query(t.services, GROUPS, { groupBy: 'COUNTRY_CODE', sort: 'REVENUE' });
    expect(rows(result).map((r: any) => r.key)).toEqual(EXPECTED.countryKeysByMedianRevenue);
  });

  it('orders groups with orderBy {field, direction}; ASC is the DESC order reversed, ties included', async () => {
    const ORDERED = `query($orderBy: StoreGroupOrder) {
      storeGroups(groupBy: COUNTRY_CODE, orderBy: $orderBy, first: 100) {
        nodes { key metrics { monthlyRevenueUsdHigh } }
      }
    }`;
    const desc = await query(t.services, ORDERED, { orderBy: { field: 'REVENUE' } });
    expect(desc.storeGroups.nodes.map((r: any) => r.key)).toEqual(
      EXPECTED.countryKeysByMedianRevenue,
    );
    const asc = await query(t.services, ORDERED, {
      orderBy: { field: 'REVENUE', direction: 'ASC' },
    });
    expect(asc.storeGroups.nodes.map((r: any) => r.key)).toEqual(
      [...EXPECTED.countryKeysByMedianRevenue].reverse(),
    );
    expect(asc.storeGroups.nodes.map((r: any) => r.metrics.monthlyRevenueUsdHigh)).toEqual(
      [...EXPECTED.countryGroups]
        .sort((a, b) => a.medianRevenue - b.medianRevenue)
        .map((g) => g.medianRevenue),
    );
    const both = await failure(
      t.services,
      `{ storeGroups(groupBy: COUNTRY_CODE, sort: STORES, orderBy: { field: STORES }) { totalCount } }`,
    );
    expect(both).toMatchObject({ code: 'bad_request', details: { parameter: 'orderBy' } });
  });

  it('nests groupBy2 under groupBy as parent / leaf; total is the number of groups', async () => {
    const result = await query(t.services, GROUPS, {
      groupBy: 'COUNTRY_CODE',
      groupBy2: 'VERTICAL',
      first: 100,
    });
    expect(result.storeGroups.totalCount).toBe(9);
    const groups = rows(result);
    expect(groups.map((r: any) => r.key)).toEqual(EXPECTED.countryVerticalKeys);
    for (const [key, median] of Object.entries(EXPECTED.countryVerticalMedians)) {
      const group = groups.find((r: any) => r.key === key);
      expect(group.metrics.monthlyRevenueUsd, key).toBe(median);
      expect([group.parent, group.leaf]).toEqual(key.split(' / '));
    }
  });

  it('applies the store filters before grouping', async () => {
    const result = await query(t.services, GROUPS, {
      groupBy: 'VERTICAL',
      filter: { countryCode: 'US' },
    });
    expect(rows(result).map((r: any) => [r.key, r.stores])).toEqual([
      ['Apparel', 2],
      ['Home', 2],
      ['Beauty', 1],
    ]);
  });

  it('keeps the total when a page starts past the last group', async () => {
    const result = await query(t.services, GROUPS, {
      groupBy: 'COUNTRY_CODE',
      after: offsetToCursor(5),
    });
    expect(result.storeGroups).toMatchObject({
      totalCount: 3,
      edges: [],
      pageInfo: { hasNextPage: false },
    });
  });

  it('pages through groups', async () => {
    const first = await query(t.services, GROUPS, {
      groupBy: 'COUNTRY_CODE',
      groupBy2: 'VERTICAL',
      first: 4,
    });
    expect(rows(first).map((r: any) => r.key)).toEqual(EXPECTED.countryVerticalKeys.slice(0, 4));
    expect(first.storeGroups.pageInfo.hasNextPage).toBe(true);
  });

  it('rejects groupBy2 equal to groupBy with bad_request on groupBy2', async () => {
    const error = await failure(t.services, GROUPS, {
      groupBy: 'COUNTRY_CODE',
      groupBy2: 'COUNTRY_CODE',
    });
    expect(error).toMatchObject({ code: 'bad_request', details: { parameter: 'groupBy2' } });
  });
});
