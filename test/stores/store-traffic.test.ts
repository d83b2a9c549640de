// Store.traffic: the channel shares of the latest month and of each month of the series, as the
// API reports them (shares 0..1, four decimals, from the percents the columns hold).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphQLObjectType } from 'graphql';
import { schema } from '../../src/gateway/schema.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { query } from '../graphql/support/execute.ts';

let t: CatalogTestServices;

beforeAll(async () => {
  t = await createTestServices();
  const pool = t.services.db.pool;
  const {
    rows: [store],
  } = await pool.query<{ id: number }>(
    `INSERT INTO stores (domain, name, country_code, vertical, monthly_visits, revenue_low_usd, revenue_high_usd)
     VALUES ('traffic-shares.example', 'Traffic Shares', 'US', 'Home', 5000, 100, 200) RETURNING id`,
  );
  await pool.query(
    `INSERT INTO traffic_monthly (store_id, month, visits, organic_pct, paid_pct, social_pct, direct_pct, referral_pct, source)
     VALUES ($1, '2025-11-01', 4000, 40, 20, 20, 15, 5, 'similarweb'),
            ($1, '2025-12-01', 5000, 45.67, 12.5, 33.3, 8.03, 0.5, 'semrush')`,
    [store!.id],
  );
});
afterAll(() => t?.close());

const SHARES = 'month organic paid social direct referral source';

describe('Store.traffic', () => {
  it('answers the shares of the latest month and of each point of the series', async () => {
    const data = await query(
      t.services,
      `query { store(domain: "traffic-shares.example") { traffic {
        latest { ${SHARES} }
        series(first: 2) { edges { node { ${SHARES} visits } } } } } }`,
    );
    // a percent p is the share p / 100 to four decimals: 45.67 → 0.4567, 12.5 → 0.125, 8.03 → 0.0803
    const december = {
      month: '2025-12-01',
      organic: 0.4567,
      paid: 0.125,
      social: 0.333,
      direct: 0.0803,
      referral: 0.005,
      source: 'semrush',
    };
    const november = {
      month: '2025-11-01',
      organic: 0.4,
      paid: 0.2,
      social: 0.2,
      direct: 0.15,
      referral: 0.05,
      source: 'similarweb',
    };
    expect(data.store.traffic).toEqual({
      latest: december,
      series: {
        edges: [{ node: { ...december, visits: 5000 } }, { node: { ...november, visits: 4000 } }],
      },
    });
  });

  it('reads each share as a plain field: no resolver runs per share and row', () => {
    // graphql-jit builds a resolve info and a response path for every resolver call: six a card
    for (const typeName of ['TrafficMix', 'TrafficPoint']) {
      const fields = (schema.getType(typeName) as GraphQLObjectType).getFields();
      for (const name of ['month', 'organic', 'paid', 'social', 'direct', 'referral', 'source'])
        expect({ field: `${typeName}.${name}`, resolve: fields[name]!.resolve }).toEqual({
          field: `${typeName}.${name}`,
          resolve: undefined,
        });
    }
  });
});
