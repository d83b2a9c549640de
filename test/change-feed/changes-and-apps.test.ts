// productChanges and changes (feeds of diffs), apps(q) and app(slug) with its stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { EXPECTED, loadCatalogFixture } from '../support/catalog-fixture.ts';
import { domainsOf, failure, query, run } from '../graphql/support/execute.ts';

let t: CatalogTestServices;

beforeAll(async () => {
  t = await createTestServices();
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
});
afterAll(() => t?.close());

const PRODUCT_CHANGES = `query($filter: ProductChangeFilter) {
  productChanges(filter: $filter) { totalCount edges { node { entity changeType domain subject changePct detectedAt } } }
}`;
const CHANGES = `query($filter: ChangeFilter) { changes(filter: $filter) { totalCount edges { node { id entity changeType domain summary } } } }`;
const subjects = (result: any) => result.productChanges.edges.map((e: any) => e.node.subject);

describe('productChanges', () => {
  it('lists product changes newest first', async () => {
    const result = await query(t.services, PRODUCT_CHANGES);
    expect(subjects(result)).toEqual(EXPECTED.productChanges);
    expect(result.productChanges.totalCount).toBe(6);
    expect(result.productChanges.edges[0].node).toEqual({
      entity: 'PRODUCT',
      changeType: 'REMOVED_SKU',
      domain: 'dropfast.shop',
      subject: 'fidget-cube',
      changePct: null,
      detectedAt: '2025-12-28T10:00:00.000Z',
    });
  });

  it('filters price decreases by size of change, either direction', async () => {
    const result = await query(t.services, PRODUCT_CHANGES, {
      filter: { changeType: 'PRICE_DECREASE', minPriceChangePct: 15 },
    });
    expect(subjects(result)).toEqual(EXPECTED.bigPriceDrops);
  });

  it('filters by day and by store', async () => {
    const since = await query(t.services, PRODUCT_CHANGES, {
      filter: { changeType: 'PRICE_DECREASE', since: '2025-12-01' },
    });
    expect(subjects(since)).toEqual(['led-strip-lights', 'classic-hoodie']);
    const acme = await query(t.services, PRODUCT_CHANGES, {
      filter: { domain: 'www.acme-apparel.com' },
    });
    expect(subjects(acme)).toEqual(['canvas-tote', 'classic-hoodie']);
  });
});

describe('changes', () => {
  it('is one feed of product, app and store changes', async () => {
    const all = await query(t.services, CHANGES);
    expect(all.changes.totalCount).toBe(8);
    const acme = await query(t.services, CHANGES, { filter: { domain: 'acme-apparel.com' } });
    expect(acme.changes.edges.map((e: any) => e.node.changeType)).toEqual(
      EXPECTED.acmeChanges.map((c) => c.toUpperCase()),
    );
    const stores = await query(t.services, CHANGES, { filter: { entity: 'STORE' } });
    expect(stores.changes.edges.map((e: any) => e.node)).toEqual([
      expect.objectContaining({
        entity: 'STORE',
        changeType: 'THEME_CHANGED',
        domain: 'bella-beauty.co.uk',
        summary: 'Theme Dawn → Prestige',
      }),
    ]);
  });

  it('orders by DETECTED_AT in either direction, on the root feed and on Store.changes', async () => {
    const ORDERED = `query($orderBy: ChangeOrder) {
      changes(first: 50, orderBy: $orderBy) { totalCount nodes { id detectedAt } }
      store(domain: "acme-apparel.com") { changes(orderBy: $orderBy) { nodes { changeType } } }
    }`;
    const newest = await query(t.services, ORDERED, { orderBy: { field: 'DETECTED_AT' } });
    const oldest = await query(t.services, ORDERED, {
      orderBy: { field: 'DETECTED_AT', direction: 'ASC' },
    });
    const times = oldest.changes.nodes.map((n: any) => n.detectedAt);
    expect(oldest.changes.nodes).toHaveLength(8);
    expect(times).toEqual([...times].sort());
    // ASC flips the id tie-break too, so it is DESC exactly reversed
    expect(oldest.changes.nodes).toEqual([...newest.changes.nodes].reverse());
    expect(oldest.store.changes.nodes.map((n: any) => n.changeType)).toEqual(
      [...EXPECTED.acmeChanges].reverse().map((c) => c.toUpperCase()),
    );
    expect(newest.store.changes.nodes.map((n: any) => n.changeType)).toEqual(
      EXPECTED.acmeChanges.map((c) => c.toUpperCase()),
    );
  });

  it('refuses a change type that is not a product change in the product feed', async () => {
    const error = await failure(t.services, PRODUCT_CHANGES, {
      filter: { changeType: 'THEME_CHANGED' },
    });
    expect(error).toMatchObject({ code: 'bad_request', details: { parameter: 'changeType' } });
  });

  it('filters the feed by one change type, a store-level one included', async () => {
    const stores = await query(t.services, CHANGES, { filter: { changeType: 'THEME_CHANGED' } });
    expect(stores.changes.edges.map((e: any) => e.node.domain)).toEqual(['bella-beauty.co.uk']);
  });

  it('rejects an impossible day', async () => {
    const { errors } = await run(t.services, CHANGES, { filter: { since: '2025-02-30' } });
    expect(errors[0]).toMatchObject({ code: 'bad_request' });
  });
});

describe('apps', () => {
  it('lists apps by install count, then name', async () => {
    const { apps } = await query(
      t.services,
      `{ apps { totalCount edges { node { slug installCount } } } }`,
    );
    expect(apps.edges.map((e: any) => e.node.slug)).toEqual(EXPECTED.appsByInstalls);
    expect(apps.totalCount).toBe(4);
  });

  it('finds apps by name', async () => {
    const { apps } = await query(
      t.services,
      `{ apps(q: "klaviyo") { edges { node { slug name } } } }`,
    );
    expect(apps.edges[0].node).toEqual({ slug: 'klaviyo', name: 'Klaviyo: Email Marketing & SMS' });
  });

  it('returns an app with its stores sorted by visits', async () => {
    const { app } = await query(
      t.services,
      `{ app(slug: "klaviyo") {
      slug name category installCount appStoreUrl stores(first: 3) { totalCount pageInfo { hasNextPage } edges { node { domain monthlyVisits } } } } }`,
    );
    expect(app).toMatchObject({
      slug: 'klaviyo',
      category: 'Email marketing',
      installCount: 4,
      appStoreUrl: 'https://apps.shopify.com/klaviyo',
    });
    expect(domainsOf(app.stores)).toEqual(EXPECTED.klaviyoStores.slice(0, 3));
    expect(app.stores).toMatchObject({ totalCount: 4, pageInfo: { hasNextPage: true } });
  });

  it('answers not_found with the slug', async () => {
    const error = await failure(t.services, `{ app(slug: "no-such-app") { slug } }`);
    expect(error).toMatchObject({ code: 'not_found', details: { slug: 'no-such-app' } });
  });
});
