// What a dashboard reaches for without a second round trip: a store's own change feed
// (Store.changes), the storefront addresses of stores and products (url), and `nodes` beside
// `edges` on every connection. Expected values are the catalog fixture's (test/support/catalog-fixture.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogFixture } from '../support/catalog-fixture.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { failure, query } from './support/execute.ts';

let t: CatalogTestServices;

beforeAll(async () => {
  t = await createTestServices();
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
});
afterAll(async () => {
  await t?.close();
});

describe('fields a dashboard reaches for', () => {
  it("lists a store's own changes, newest first, filtered by entity", async () => {
    const { store } = await query(
      t.services,
      `{ store(domain: "acme-apparel.com") {
           changes { totalCount nodes { changeType subject } }
           appChanges: changes(entity: APP) { nodes { changeType subject } }
           since: changes(since: "2025-12-21") { nodes { subject } } } }`,
    );
    expect(store.changes).toEqual({
      totalCount: 3,
      nodes: [
        { changeType: 'NEW_SKU', subject: 'canvas-tote' },
        { changeType: 'PRICE_DECREASE', subject: 'classic-hoodie' },
        { changeType: 'APP_INSTALLED', subject: expect.any(String) },
      ],
    });
    expect(store.appChanges.nodes).toEqual([
      { changeType: 'APP_INSTALLED', subject: expect.any(String) },
    ]);
    expect(store.since.nodes).toEqual([{ subject: 'canvas-tote' }]);
  });

  it('gives the storefront address of a store and of a product', async () => {
    const data = await query(
      t.services,
      `{ store(domain: "acme-apparel.com") { url }
         product(domain: "acme-apparel.com", handle: "classic-hoodie") { url } }`,
    );
    expect(data.store.url).toBe('https://acme-apparel.com/');
    expect(data.product.url).toBe('https://acme-apparel.com/products/classic-hoodie');
  });

  it('answers nodes beside edges, the same items in the same order, with the fields asked of them', async () => {
    const { stores } = await query(
      t.services,
      '{ stores(first: 4, sort: VISITS) { nodes { domain url monthlyVisits } edges { node { domain } } } }',
    );
    expect(stores.nodes).toHaveLength(4);
    expect(stores.nodes.map((n: { domain: string }) => n.domain)).toEqual(
      stores.edges.map((e: { node: { domain: string } }) => e.node.domain),
    );
    for (const node of stores.nodes) {
      expect(node.url).toBe(`https://${node.domain}/`);
      expect(node.monthlyVisits).toBeGreaterThan(0);
    }
  });

  it('answers a store list asked only through nodes (no edges), with every field it asks', async () => {
    const { stores } = await query(
      t.services,
      '{ stores(first: 12, filter: { countryCode: "US" }) { nodes { domain apps { slug } } } }',
    );
    const acme = stores.nodes.find((n: { domain: string }) => n.domain === 'acme-apparel.com');
    expect(acme.apps.map((a: { slug: string }) => a.slug).sort()).toEqual([
      'gorgias',
      'judgeme',
      'klaviyo',
    ]);
  });

  it('orders stores with orderBy {field, direction}, as REST sorts them, in either direction', async () => {
    const ALL =
      'query($orderBy: StoreOrder) { stores(first: 100, orderBy: $orderBy) { totalCount nodes { domain monthlyVisits firstSeenAt } } }';
    const asc = (await query(t.services, ALL, { orderBy: { field: 'VISITS', direction: 'ASC' } }))
      .stores;
    const visits = asc.nodes.map((n: { monthlyVisits: number }) => n.monthlyVisits);
    expect(asc.nodes).toHaveLength(asc.totalCount);
    expect(visits).toEqual([...visits].sort((a, b) => a - b));
    const desc = (await query(t.services, ALL, { orderBy: { field: 'VISITS' } })).stores;
    expect(desc.nodes.map((n: { monthlyVisits: number }) => n.monthlyVisits)).toEqual(
      [...visits].sort((a, b) => b - a),
    );
    // the deprecated sort gives the same order as orderBy's DESC
    const sorted = (
      await query(t.services, '{ stores(first: 100, sort: VISITS) { nodes { domain } } }')
    ).stores;
    expect(sorted.nodes.map((n: { domain: string }) => n.domain)).toEqual(
      desc.nodes.map((n: { domain: string }) => n.domain),
    );
    const newest = (await query(t.services, ALL, { orderBy: { field: 'FIRST_SEEN' } })).stores;
    const seen = newest.nodes.map((n: { firstSeenAt: string }) => n.firstSeenAt);
    expect(seen).toEqual([...seen].sort().reverse());

    expect(
      await failure(
        t.services,
        '{ stores(filter: { q: "glow" }, orderBy: { field: RELEVANCE, direction: ASC }) { totalCount } }',
      ),
    ).toMatchObject({ code: 'bad_request', details: { parameter: 'orderBy.direction' } });
    expect(
      await failure(
        t.services,
        '{ stores(sort: VISITS, orderBy: { field: VISITS }) { totalCount } }',
      ),
    ).toMatchObject({ code: 'bad_request', details: { parameter: 'orderBy' } });
  });
});
