// Product title search by words (src/search/): the word itself first, then the words it begins
// (typing), words one typing mistake away, longer words containing it; equally good titles in id
// order. Pages never overlap and hold every match exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  resolveProductFilter,
  titleSearchPage,
  type ProductFilterValues,
} from '../../src/products/product-search.sql.ts';
import { loadCatalogFixture } from '../support/catalog-fixture.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';

let t: CatalogTestServices;

const TITLES = [
  'Light',
  'Night Light',
  'LED Strip Lights',
  'Flight Jacket',
  'Lighthouse Print',
  'Desk Lamp',
  'Ligth Bulb',
  'Spotlight Lamp',
];

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

async function search(filter: ProductFilterValues, offset = 0, limit = 20) {
  const resolved = await resolveProductFilter(t.services.db.pool, filter);
  return titleSearchPage(
    t.services.db.pool,
    { ...resolved, textMatch: resolved.textMatch! },
    { offset, limit },
  );
}
const titles = async (filter: ProductFilterValues, offset = 0, limit = 20) =>
  (await search(filter, offset, limit)).rows.map((p) => p.title);

describe('product title search', () => {
  it('ranks the word itself, then words it begins, then words one typing mistake away, then longer words containing it', async () => {
    // equally good matches by id; the catalog fixture has an LED Strip Lights and a Night Cream of its own
    expect(await titles({ q: 'light' })).toEqual([
      'Light',
      'Night Light',
      'LED Strip Lights',
      'LED Strip Lights',
      'Lighthouse Print',
      'Night Cream',
      'Flight Jacket',
      'Ligth Bulb',
      'Spotlight Lamp',
    ]);
  });

  it('returns every match once across pages, and counts them', async () => {
    const all = await titles({ q: 'light' });
    const seen: string[] = [];
    for (let offset = 0; offset < all.length + 2; offset += 2)
      seen.push(...(await titles({ q: 'light' }, offset, 2)));
    expect(seen).toEqual(all);
    expect(await search({ q: 'light' })).toMatchObject({ total: all.length });
    expect(await search({ q: 'light' }, 10, 2)).toMatchObject({ rows: [], total: all.length });
  });

  it('finds a misspelt word, the word as spelt first', async () => {
    const found = await titles({ q: 'ligth' });
    expect(found[0]).toBe('Ligth Bulb');
    expect(found).toContain('Light');
  });

  it('puts titles matching more of the words first', async () => {
    expect((await titles({ q: 'night light' }))[0]).toBe('Night Light');
    expect((await titles({ q: 'strip lights' }))[0]).toBe('LED Strip Lights');
  });

  it('keeps the ranking when another filter narrows the search', async () => {
    const all = await titles({ q: 'light' });
    expect(await titles({ q: 'light', domain: 'dropfast.shop' })).toEqual(
      all.filter((title) => title !== 'Night Cream'),
    );
    expect(await titles({ q: 'light', domain: 'acme-apparel.com' })).toEqual([]);
    expect(await titles({ q: 'light', priceMax: 5 })).toEqual([]);
  });

  it('finds nothing for a word no title is near', async () => {
    expect(await search({ q: 'xqzvbtk' })).toMatchObject({ rows: [], total: 0 });
  });
});
