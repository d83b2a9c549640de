// The total of a product list with q in another order than relevance: exact up to 10,000 matches,
// PostgreSQL's estimate past it. When one matched term alone is held by more products than that
// (the vocabulary counts its holders), the capped count could only end at its cap: it is not run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXACT_COUNT_LIMIT } from '../../src/platform/database/sql.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { query } from '../graphql/support/execute.ts';

const LINEN = EXACT_COUNT_LIMIT + 200;
let t: CatalogTestServices;

beforeAll(async () => {
  t = await createTestServices({ countStatements: true });
  const client = await t.services.db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL statement_timeout = '2min'`);
    const { rows } = await client.query(
      `INSERT INTO stores (domain, name) VALUES ('linen-house.com', 'Linen House') RETURNING id`,
    );
    // LINEN linen products, and 30 wool ones
    await client.query(
      `INSERT INTO products (store_id, handle, title, price)
       SELECT $1, 'item-' || n, CASE WHEN n <= $2 THEN 'Linen shirt ' ELSE 'Wool scarf ' END || n, 10 + n % 50
       FROM generate_series(1, $2 + 30) AS n`,
      [rows[0].id, LINEN],
    );
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  await t.services.db.pool.query('ANALYZE products');
});
afterAll(() => t?.close());

const BY_PRICE = `query($q: String!) { products(filter: { q: $q }, first: 3, orderBy: { field: PRICE, direction: DESC }) {
  totalCount totalCountExact nodes { handle } } }`;

const countStatements = () => t.counter!.sent.filter(({ text }) => /count\(\*\)/i.test(text));

describe('the total of a q search in price order', () => {
  it('is estimated without a count when one term alone is held past the exact-count limit', async () => {
    t.counter!.reset();
    const { products } = await query(t.services, BY_PRICE, { q: 'linen' });
    expect(products.nodes).toHaveLength(3);
    expect(products.totalCountExact).toBe(false);
    expect(products.totalCount).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(countStatements().map(({ text }) => text)).toEqual([]);
  });

  it('is counted exactly below it', async () => {
    t.counter!.reset();
    const { products } = await query(t.services, BY_PRICE, { q: 'wool' });
    expect(products).toMatchObject({ totalCount: 30, totalCountExact: true });
    expect(countStatements()).toHaveLength(1);
  });
});
