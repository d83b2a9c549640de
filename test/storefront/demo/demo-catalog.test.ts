import { describe, expect, it } from 'vitest';
import { UNLISTED } from '../../../src/seed/seeded-catalog.ts';
import { demoCatalog, type DemoStore } from '../../../src/storefront/demo/demo-catalog.ts';
import { suiteDatabase } from '../../support/database.ts';

const idsByHandle = (store: DemoStore | null) =>
  Object.fromEntries((store?.products ?? []).map((p) => [p.handle, p.id]));

describe('the demo storefront of a store the catalog lacks', () => {
  const suite = suiteDatabase();

  it('keeps its product ids, and so its variant ids, once a scrape brings it into the catalog', async () => {
    // a fresh catalog each time: the demo keeps what it read of a store for a few seconds
    const before = await demoCatalog(suite.pool).store(UNLISTED.store);
    expect(Object.keys(idsByHandle(before)).sort()).toEqual([
      'canvas-tote-bag',
      'everyday-hoodie',
      'organic-cotton-tee',
    ]);

    // what the scrape writes: the store and the products it read, under the catalog's own row ids
    const {
      rows: [store],
    } = await suite.pool.query<{ id: number }>(
      `INSERT INTO stores (domain, name) VALUES ($1, 'New Brand') RETURNING id`,
      [UNLISTED.store],
    );
    for (const product of before!.products)
      await suite.pool.query(
        `INSERT INTO products (store_id, handle, title, price) VALUES ($1, $2, $3, $4)`,
        [store!.id, product.handle, product.title, product.price],
      );

    const after = await demoCatalog(suite.pool).store(UNLISTED.store);
    expect(idsByHandle(after)).toEqual(idsByHandle(before));
  });
});
