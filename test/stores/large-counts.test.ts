// Totals over broad filters: exact when store_filter_counts holds the filter (the whole catalog, a
// country, dropshippers, ...); otherwise exact up to 10,000 matches, PostgreSQL's estimate beyond
// (flagged by totalCountExact = false); paging never depends on the total.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetToCursor } from '@pothos/plugin-relay';
import { EXACT_COUNT_LIMIT } from '../../src/platform/database/sql.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { query } from '../graphql/support/execute.ts';

const STORES = 10_500;
let t: CatalogTestServices;

beforeAll(async () => {
  t = await createTestServices();
  // one statement writing 10,500 stores and their counts: past the request-sized timeout on a loaded machine
  const client = await t.services.db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL statement_timeout = '2min'`);
    await client.query(
      `INSERT INTO stores (domain, name, country_code, monthly_visits, revenue_high_usd, is_dropshipper)
     SELECT 'many-' || n || '.com', 'Many ' || n, CASE WHEN n % 100 = 0 THEN 'GB' ELSE 'US' END, n, n, n % 100 = 0
     FROM generate_series(1, $1) AS n`,
      [STORES],
    );
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  await t.services.db.pool.query('ANALYZE stores');
});
afterAll(() => t?.close());

const COUNT = `query($filter: StoreFilter, $after: String) { stores(filter: $filter, first: 5, after: $after) {
  totalCount totalCountExact pageInfo { hasNextPage } edges { node { domain } } } }`;

describe('totals of large result sets', () => {
  it('estimates past the exact-count limit and says so', async () => {
    const { stores } = await query(t.services, COUNT, { filter: { minVisits: 1 } });
    expect(stores.totalCountExact).toBe(false);
    expect(stores.totalCount).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(Math.abs(stores.totalCount - STORES) / STORES).toBeLessThan(0.1);
  });

  it('counts exactly below the limit', async () => {
    const { stores } = await query(t.services, COUNT, {
      filter: { countryCode: 'GB', minVisits: 1 },
    });
    expect(stores).toMatchObject({ totalCount: STORES / 100, totalCountExact: true });
  });

  it('answers the whole catalog and a counted filter exactly past the limit', async () => {
    expect((await query(t.services, COUNT)).stores).toMatchObject({
      totalCount: STORES,
      totalCountExact: true,
    });
    // every 100th store is in GB and a dropshipper: 10,395 in the US, 10,395 not dropshippers
    for (const filter of [
      { countryCode: 'us' },
      { isDropshipper: false },
      { countryCode: 'US', isDropshipper: false },
    ])
      expect(
        (await query(t.services, COUNT, { filter })).stores,
        JSON.stringify(filter),
      ).toMatchObject({
        totalCount: 10_395,
        totalCountExact: true,
      });
  });

  it('pages to the very end regardless of the estimate', async () => {
    const { stores } = await query(t.services, COUNT, { after: offsetToCursor(STORES - 3) });
    expect(stores.edges.map((e: any) => e.node.domain)).toEqual(['many-2.com', 'many-1.com']);
    expect(stores.pageInfo.hasNextPage).toBe(false);
  });
});
