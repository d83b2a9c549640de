// A store's (or an app's) own lists: products, traffic series, history, the app's stores. A page
// costs one named statement PostgreSQL plans once per connection; the exact total is counted only
// when the caller selects it, and then equals count(*).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { FIXTURE_PRODUCTS, loadCatalogFixture } from '../support/catalog-fixture.ts';
import { query } from './support/execute.ts';

let t: CatalogTestServices;

beforeAll(async () => {
  t = await createTestServices({ countStatements: true });
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
});
afterAll(() => t?.close());

async function read(document: string) {
  t.counter!.reset();
  const data = await query(t.services, document);
  return { data, sent: [...t.counter!.sent] };
}

const count = async (sql: string, values: unknown[]) =>
  (await t.services.db.pool.query<{ n: number }>(sql, values)).rows[0]!.n;

const STORE = 'acme-apparel.com';
/** count(*) of the store's rows in `table` */
const rowsOfStore = (table: string) =>
  count(
    `SELECT count(*)::int AS n FROM ${table} x JOIN stores s ON s.id = x.store_id WHERE s.domain = $1`,
    [STORE],
  );

/** Each list: its document with and without the total, and count(*) of its rows. */
const LISTS = [
  {
    list: 'Store.products',
    page: (total: string) =>
      `{ store(domain: "${STORE}") { products(first: 1) { ${total} edges { node { handle } } } } }`,
    connection: (data: any) => data.store.products,
    exact: () => rowsOfStore('products'),
  },
  {
    list: 'Store.history',
    page: (total: string) =>
      `{ store(domain: "${STORE}") { history(first: 1) { ${total} edges { node { day } } } } }`,
    connection: (data: any) => data.store.history,
    exact: () => rowsOfStore('store_daily_snapshots'),
  },
  {
    list: 'StoreTraffic.series',
    page: (total: string) =>
      `{ store(domain: "${STORE}") { traffic { series(first: 1) { ${total} edges { node { month } } } } } }`,
    connection: (data: any) => data.store.traffic.series,
    exact: () => rowsOfStore('traffic_monthly'),
  },
  {
    list: 'App.stores',
    page: (total: string) =>
      `{ app(slug: "klaviyo") { stores(first: 1) { ${total} edges { node { domain } } } } }`,
    connection: (data: any) => data.app.stores,
    exact: () =>
      count(
        `SELECT count(*)::int AS n FROM store_apps sa JOIN apps a ON a.id = sa.app_id WHERE a.slug = $1`,
        ['klaviyo'],
      ),
  },
];

describe.each(LISTS)('$list', ({ page, connection, exact }) => {
  it('counts nothing when the total is not selected', async () => {
    const { data, sent } = await read(page(''));
    expect(connection(data).edges).toHaveLength(1);
    const texts = sent.map((s) => s.text).join('\n---\n');
    expect(texts).not.toMatch(/count\(\*\)/);
  });

  it('answers the exact total when it is selected', async () => {
    const n = await exact();
    expect(n).toBeGreaterThan(1);
    const { data } = await read(page('totalCount'));
    expect(connection(data).totalCount).toBe(n);
  });
});

// a store's own lists: one statement suits every store (a store's first products come in the
// store's own statement, below)
const STORE_LISTS = LISTS.filter(({ list }) => !['App.stores', 'Store.products'].includes(list));

describe.each(STORE_LISTS)('$list', ({ list, page }) => {
  it('reads its page with a named statement PostgreSQL stops planning', async () => {
    const { sent } = await read(page(''));
    const named = sent.filter((s) => s.name?.startsWith('child-page:'));
    expect(
      named,
      sent.map((s) => `${s.name ?? '(unnamed)'}: ${s.text}`).join('\n---\n'),
    ).toHaveLength(1);
    const [probe] = named;
    const name = `probe:${list}`;
    const client = await t.services.db.pool.connect();
    try {
      for (let run = 0; run < 8; run++)
        await client.query({ name, text: probe!.text, values: probe!.values });
      const { rows } = await client.query(
        `SELECT generic_plans::int FROM pg_prepared_statements WHERE name = $1`,
        [name],
      );
      expect(rows[0].generic_plans, probe!.text).toBeGreaterThan(0);
      await client.query(`DEALLOCATE "${name}"`);
    } finally {
      client.release();
    }
  });
});

describe('App.stores', () => {
  // a common app's page walks the stores by visits, a rare one's starts from its installs: the
  // plan depends on the app, so the statement is planned for each
  it("reads a single app's page as a semi-join planned for that app", async () => {
    const { page } = LISTS.find(({ list }) => list === 'App.stores')!;
    const { sent } = await read(page(''));
    const pageStatement = sent.find((s) => /ORDER BY s\.monthly_visits DESC/.test(s.text));
    expect(pageStatement?.name, pageStatement?.text).toBeUndefined();
    expect(pageStatement!.text).toMatch(
      /WHERE EXISTS \(SELECT 1 FROM store_apps sa WHERE sa\.store_id = s\.id AND sa\.app_id = \$1\)/,
    );
  });
});

// A store's first products (the default page and one row more) come in the store's own statement;
// a page past them, or a total past them, is read as any other list's.
describe("Store.products carried in the store's statement", () => {
  const MANY = 'many-products.example';
  /** 30 products: three best-sellers (ranks on item-30, item-10, item-20), the rest in id order */
  const RANKS: Record<string, number> = { 'item-30': 1, 'item-10': 2, 'item-20': 3 };
  const handles = Array.from({ length: 30 }, (_, i) => `item-${String(i + 1).padStart(2, '0')}`);
  // the documented order, worked by hand: best-sellers by rank, then the rest by id
  const ORDER = [
    'item-30',
    'item-10',
    'item-20',
    ...handles.filter((handle) => !(handle in RANKS)),
  ];

  beforeAll(async () => {
    const pool = t.services.db.pool;
    const { rows } = await pool.query<{ id: number }>(
      `INSERT INTO stores (domain, name) VALUES ($1, 'Many Products') RETURNING id`,
      [MANY],
    );
    for (const handle of handles)
      await pool.query(
        `INSERT INTO products (store_id, handle, title, vendor, price, is_best_seller, best_seller_rank, published_at)
         VALUES ($1, $2, $3, $4, 10, $5, $6, '2025-06-01T12:00:00Z')`,
        [
          rows[0]!.id,
          handle,
          `Item ${handle}`,
          `Maker of ${handle}`,
          handle in RANKS,
          RANKS[handle] ?? null,
        ],
      );
  });

  const products = (args: string, fields = '') =>
    read(`{ store(domain: "${MANY}") { domain products(${args}) { ${fields}
      pageInfo { hasNextPage endCursor } edges { node { handle price isBestSeller publishedAt updatedAt } } } } }`);
  const handlesOf = (data: any) => data.store.products.edges.map((e: any) => e.node.handle);

  it('answers the first page with the store in one statement', async () => {
    const { data, sent } = await products('first: 20');
    expect(handlesOf(data)).toEqual(ORDER.slice(0, 20));
    expect(data.store.products.pageInfo.hasNextPage).toBe(true);
    expect(
      sent,
      sent.map((s) => `${s.name ?? '(unnamed)'}: ${s.text}`).join('\n---\n'),
    ).toHaveLength(1);
    // the carried rows are the records a page statement reads: numbers and dates as themselves
    const first = data.store.products.edges[0].node;
    expect(first).toMatchObject({ handle: 'item-30', price: 10, isBestSeller: true });
    expect(first.publishedAt).toBe('2025-06-01T12:00:00.000Z');
    expect(Date.parse(first.updatedAt)).not.toBeNaN();
  });

  it('reads a page past the carried rows, and a total, as any other list', async () => {
    const first = await products('first: 20');
    const next = await products(
      `first: 20, after: "${first.data.store.products.pageInfo.endCursor}"`,
    );
    expect(handlesOf(next.data)).toEqual(ORDER.slice(20));
    expect(next.data.store.products.pageInfo.hasNextPage).toBe(false);
    expect(next.sent.some((s) => s.name?.startsWith('child-page:store-products'))).toBe(true);

    const longer = await products('first: 25');
    expect(handlesOf(longer.data)).toEqual(ORDER.slice(0, 25));

    const counted = await products('first: 5', 'totalCount');
    expect(handlesOf(counted.data)).toEqual(ORDER.slice(0, 5));
    expect(counted.data.store.products.totalCount).toBe(30);
    expect(counted.sent.map((s) => s.text).join('\n')).toMatch(/count\(\*\)/);
  });

  it("gives each store of a list its own products, in the list's one statement", async () => {
    const { data, sent } = await read(
      `{ stores(first: 20) { edges { node { domain products(first: 20) { edges { node { domain handle } } } } } } }`,
    );
    const listed = data.stores.edges.map((e: any) => e.node);
    const expected = (domain: string) =>
      (domain === MANY
        ? ORDER.slice(0, 20)
        : FIXTURE_PRODUCTS.filter((p) => p.domain === domain).map((p) => p.handle)
      ).sort();
    expect(listed.length).toBeGreaterThan(5);
    for (const store of listed) {
      const products = store.products.edges.map((e: any) => e.node);
      expect(products.every((p: any) => p.domain === store.domain)).toBe(true);
      expect(products.map((p: any) => p.handle).sort()).toEqual(expected(store.domain));
    }
    expect(sent.filter((s) => /FROM products p/.test(s.text))).toHaveLength(1);
  });

  it("answers a store's best-sellers and its other products from its whole list", async () => {
    // acme-apparel.com: best-sellers classic-hoodie (rank 1) and everyday-tee (rank 2), then canvas-tote
    const page = (isBestSeller: boolean) =>
      read(`{ store(domain: "${STORE}") { products(isBestSeller: ${isBestSeller}, first: 20) {
        totalCount edges { node { handle isBestSeller } } } } }`);
    const best = await page(true);
    expect(best.data.store.products.edges.map((e: any) => e.node.handle)).toEqual([
      'classic-hoodie',
      'everyday-tee',
    ]);
    expect(best.data.store.products.totalCount).toBe(2);
    expect(best.sent).toHaveLength(1);
    const others = await page(false);
    expect(others.data.store.products.edges.map((e: any) => e.node.handle)).toEqual([
      'canvas-tote',
    ]);
    expect(others.data.store.products.totalCount).toBe(1);
    expect(others.sent).toHaveLength(1);
    // a list longer than the carried rows reads its best-sellers itself
    const many = await read(`{ store(domain: "${MANY}") { products(isBestSeller: true) {
      totalCount edges { node { handle } } } } }`);
    expect(many.data.store.products.edges.map((e: any) => e.node.handle)).toEqual([
      'item-30',
      'item-10',
      'item-20',
    ]);
    expect(many.data.store.products.totalCount).toBe(3);
    expect(many.sent.length).toBeGreaterThan(1);
  });

  it('carries only the product columns its selection reads', async () => {
    const page = (fields: string) =>
      read(`{ store(domain: "${MANY}") { products(first: 20) { edges { node { ${fields} } } } } }`);
    const lean = await page('handle title price');
    expect(lean.sent).toHaveLength(1);
    expect(lean.data.store.products.edges.map((e: any) => e.node)).toEqual(
      ORDER.slice(0, 20).map((handle) => ({ handle, title: `Item ${handle}`, price: 10 })),
    );
    // the columns no selected field reads stay in the table
    expect(lean.sent[0]!.text).not.toMatch(/p\.vendor|p\.image_url|p\.published_at|p\.updated_at/);

    const described = await page('handle vendor publishedAt');
    expect(described.sent).toHaveLength(1);
    expect(described.sent[0]!.text).toMatch(/p\.vendor/);
    expect(described.data.store.products.edges[0].node).toEqual({
      handle: 'item-30',
      vendor: 'Maker of item-30',
      publishedAt: '2025-06-01T12:00:00.000Z',
    });
  });

  it('answers two selections of the products in one request each with its own columns', async () => {
    const { data } = await read(`{ store(domain: "${MANY}") {
      a: products(first: 3) { edges { node { handle } } }
      b: products(first: 3) { edges { node { handle vendor publishedAt url } } } } }`);
    expect(data.store.a.edges.map((e: any) => e.node)).toEqual(
      ORDER.slice(0, 3).map((handle) => ({ handle })),
    );
    expect(data.store.b.edges.map((e: any) => e.node)).toEqual(
      ORDER.slice(0, 3).map((handle) => ({
        handle,
        vendor: `Maker of ${handle}`,
        publishedAt: '2025-06-01T12:00:00.000Z',
        url: `https://${MANY}/products/${handle}`,
      })),
    );
  });

  it("counts nothing when the store's whole list came along", async () => {
    // acme-apparel.com has fewer products than a page: its total is the carried rows
    const n = await rowsOfStore('products');
    const { data, sent } = await read(
      `{ store(domain: "${STORE}") { products(first: 1) { totalCount pageInfo { hasNextPage } edges { node { handle } } } } }`,
    );
    expect(data.store.products.totalCount).toBe(n);
    expect(data.store.products.pageInfo.hasNextPage).toBe(n > 1);
    expect(sent).toHaveLength(1);
  });
});
