// Product title search ordered nearest first: a title search alone is read off the GiST index on
// lower(title) by word-similarity distance, so pages come closest first, never overlap, and hold
// every match (substring or fuzzy word) exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countProducts, searchProducts } from '../../src/products/product-search.sql.ts';
import { loadCatalogFixture } from '../support/catalog-fixture.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';

let t: CatalogTestServices;

const TITLES = ['Light', 'Night Light', 'LED Strip Lights', 'Flight Jacket', 'Lighthouse Print', 'Desk Lamp', 'Ligth Bulb'];

beforeAll(async () => {
  t = await createTestServices();
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
  await t.services.db.pool.query(
    `INSERT INTO products (store_id, handle, title, price)
     SELECT (SELECT id FROM stores WHERE domain = 'dropfast.shop'), 'item-' || n, title, 10
       FROM unnest($1::text[]) WITH ORDINALITY AS x(title, n)`,
    [TITLES],
  );
});
afterAll(() => t?.close());

/** every product matching q the way the search defines a match, with its word-similarity distance */
async function matches(q: string) {
  const { rows } = await t.services.db.pool.query<{ title: string; distance: number }>(
    `SELECT title, 1 - word_similarity($1, title) AS distance FROM products
      WHERE title ILIKE '%' || $1 || '%' OR $1 <% title`,
    [q],
  );
  return rows;
}

describe('product title search', () => {
  it('returns every match once, closest first, across pages', async () => {
    const expected = await matches('light');
    expect(expected.map((m) => m.title)).not.toContain('Desk Lamp');
    const seen: string[] = [];
    for (let offset = 0; offset < expected.length + 2; offset += 2) {
      const page = await searchProducts(t.services.db.pool, { q: 'light' }, { offset, limit: 2 });
      seen.push(...page.map((p) => p.title));
    }
    expect([...seen].sort()).toEqual(expected.map((m) => m.title).sort());
    const distance = new Map(expected.map((m) => [m.title, m.distance]));
    const distances = seen.map((title) => distance.get(title)!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(['Light', 'Night Light']).toContain(seen[0]);
  });

  it('finds a misspelt word and counts small result sets exactly', async () => {
    const page = await searchProducts(t.services.db.pool, { q: 'ligth' }, { offset: 0, limit: 5 });
    expect(page[0]!.title).toBe('Ligth Bulb');
    expect(await countProducts(t.services.db.pool, { q: 'light' })).toEqual({ total: (await matches('light')).length, exact: true });
  });

  it('keeps ranking by similarity, then id, when another filter narrows the search', async () => {
    const page = await searchProducts(t.services.db.pool, { q: 'light', domain: 'dropfast.shop' }, { offset: 0, limit: 10 });
    expect(page.map((p) => p.title).slice(0, 2)).toEqual(['Light', 'Night Light']);
  });
});
