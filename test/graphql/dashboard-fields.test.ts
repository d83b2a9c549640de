// What a dashboard reaches for without a second round trip: a store's own change feed
// (Store.changes), the storefront addresses of stores and products (url), and `nodes` beside
// `edges` on every connection. Expected values are the catalog fixture's (test/support/catalog-fixture.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogFixture } from '../support/catalog-fixture.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { query } from './support/execute.ts';

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
           appChanges: changes(entity: app) { nodes { changeType subject } }
           since: changes(since: "2025-12-21") { nodes { subject } } } }`,
    );
    expect(store.changes).toEqual({
      totalCount: 3,
      nodes: [
        { changeType: 'new_sku', subject: 'canvas-tote' },
        { changeType: 'price_decrease', subject: 'classic-hoodie' },
        { changeType: 'app_installed', subject: expect.any(String) },
      ],
    });
    expect(store.appChanges.nodes).toEqual([
      { changeType: 'app_installed', subject: expect.any(String) },
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
      '{ stores(first: 4, sort: visits) { nodes { domain url monthlyVisits } edges { node { domain } } } }',
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
});
