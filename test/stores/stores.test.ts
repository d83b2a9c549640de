// store(domain), stores (search, filters, sorts, paging), compareStores and node(id) on the known
// catalog fixture.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetToCursor } from '@pothos/plugin-relay';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { EXPECTED, loadCatalogFixture } from '../support/catalog-fixture.ts';
import { domainsOf, failure, query } from '../graphql/support/execute.ts';

let t: CatalogTestServices;

beforeAll(async () => {
  t = await createTestServices();
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
});
afterAll(() => t?.close());

const STORES = `query($filter: StoreFilter, $sort: StoreSort, $first: Int, $after: String) {
  stores(filter: $filter, sort: $sort, first: $first, after: $after) {
    totalCount totalCountExact
    pageInfo { hasNextPage endCursor }
    edges { cursor node { domain } }
  }
}`;

describe('store(domain)', () => {
  it('returns the full profile, merging the structured store, the legacy store and traffic', async () => {
    const { store } = await query(
      t.services,
      `{
      store(domain: "https://www.ACME-apparel.com/collections/all?page=2") {
        domain name monthlyVisits monthlyRevenueUsd { low high } isDropshipper serviceRating serviceGrade
        vertical industry category countryCode currency legacyId firstSeenAt
        screenshotUrl socials { instagram facebook tiktok } emails sources
        traffic { latest { month organic paid social direct referral source } series(first: 2) { totalCount edges { node { month visits } } } }
        history(first: 2) { totalCount edges { node { day monthlyVisits monthlyRevenueUsd { high } } } }
        metrics { productCount appCount visitsChangePct revenueChangePct adSpendUsd }
        conversionRatePct { low high } averageOrderValueUsd
        apps { slug }
        products(isBestSeller: true) { totalCount edges { node { handle bestSellerRank } } }
      }
    }`,
    );
    expect(store).toMatchObject({
      domain: 'acme-apparel.com',
      name: 'Acme Apparel',
      monthlyVisits: 120_000,
      monthlyRevenueUsd: { low: 50_000, high: 80_000 },
      isDropshipper: false,
      serviceRating: 88,
      serviceGrade: 'A',
      vertical: 'Apparel',
      countryCode: 'US',
      currency: 'USD',
      legacyId: 'a0a0a0a0a0a0a0a0a0a0a001',
      firstSeenAt: '2024-01-10T00:00:00.000Z',
      screenshotUrl: 'https://shots.example/acme.png',
      socials: {
        instagram: 'https://instagram.com/acme',
        facebook: 'https://facebook.com/acme',
        tiktok: null,
      },
      emails: ['hello@acme-apparel.com'],
      sources: EXPECTED.sources['acme-apparel.com'],
      traffic: {
        latest: EXPECTED.acmeLatestTraffic,
        series: {
          totalCount: 3,
          edges: [
            { node: { month: '2025-12-01', visits: 120_000 } },
            { node: { month: '2025-11-01', visits: 110_000 } },
          ],
        },
      },
      history: {
        totalCount: 3,
        edges: [
          {
            node: {
              day: '2025-12-31',
              monthlyVisits: 120_000,
              monthlyRevenueUsd: { high: 80_000 },
            },
          },
          {
            node: {
              day: '2025-12-30',
              monthlyVisits: 119_000,
              monthlyRevenueUsd: { high: 79_000 },
            },
          },
        ],
      },
      metrics: {
        productCount: 3,
        appCount: 3,
        visitsChangePct: 25,
        revenueChangePct: 20,
        adSpendUsd: 5_000,
      },
      conversionRatePct: { low: 1.2, high: 2.4 },
      averageOrderValueUsd: 50,
      apps: EXPECTED.acmeApps.map((slug) => ({ slug })),
      products: {
        totalCount: 2,
        edges: [
          { node: { handle: 'classic-hoodie', bestSellerRank: 1 } },
          { node: { handle: 'everyday-tee', bestSellerRank: 2 } },
        ],
      },
    });
  });

  it('names exactly the backends that contributed in sources', async () => {
    for (const [domain, sources] of Object.entries(EXPECTED.sources)) {
      const { store } = await query(
        t.services,
        `query($d: String!) { store(domain: $d) { sources } }`,
        { d: domain },
      );
      expect(store.sources, domain).toEqual(sources);
    }
  });

  it('has null traffic.latest, empty socials and emails for a store without coverage or legacy summary', async () => {
    const { store } = await query(
      t.services,
      `{ store(domain: "cozy-nest.com") {
      traffic { latest { month } series { totalCount edges { cursor } } } screenshotUrl socials { instagram } emails legacyId apps { slug } } }`,
    );
    expect(store).toEqual({
      traffic: { latest: null, series: { totalCount: 0, edges: [] } },
      screenshotUrl: null,
      socials: { instagram: null },
      emails: [],
      legacyId: null,
      apps: [],
    });
  });

  it("explains each modeled figure with its method and this store's inputs", async () => {
    const { store } = await query(
      t.services,
      `{ store(domain: "acme-apparel.com") { models {
      visits { model method inputs { name number } }
      rating { inputs { name number boolean } }
      dropshipper { fields inputs { name number } }
    } } }`,
    );
    expect(store.models.visits.method).toMatch(/visits/i);
    expect(store.models.visits.inputs).toEqual([
      { name: 'socialFollowers', number: 15_000 },
      { name: 'productCount', number: 3 },
      { name: 'appCount', number: 3 },
      { name: 'thirdPartyVisits', number: 120_000 },
    ]);
    const rating = Object.fromEntries(
      store.models.rating.inputs.map((i: any) => [i.name, i.boolean ?? i.number]),
    );
    expect(rating).toMatchObject({
      hasReviewsApp: true,
      hasSupportApp: true,
      hasContactEmail: true,
      socialProfiles: 2,
    });
    expect(store.models.dropshipper.fields).toContain('isDropshipper');
    expect(store.models.dropshipper.inputs).toContainEqual({
      name: 'dropshippingAppCount',
      number: 0,
    });
  });

  it('answers not_found with the domain for a store missing from the catalog', async () => {
    const error = await failure(
      t.services,
      `{ store(domain: "www.unknown-store.com") { domain } }`,
    );
    expect(error.code).toBe('not_found');
    expect(error.details).toEqual({ domain: 'unknown-store.com' });
  });

  it('refuses a nested page above 180 with bad_request naming first', async () => {
    const error = await failure(
      t.services,
      `{ store(domain: "acme-apparel.com") { history(first: 500) { totalCount } } }`,
    );
    expect(error).toMatchObject({ code: 'bad_request', details: { parameter: 'first' } });
  });

  it('answers bad_request naming the domain parameter for a value that is not a domain', async () => {
    const error = await failure(t.services, `{ store(domain: "not a domain") { domain } }`);
    expect(error.code).toBe('bad_request');
    expect(error.details).toMatchObject({ parameter: 'domain' });
  });
});

describe('stores', () => {
  it('lists every store by revenue by default, with an exact total', async () => {
    const { stores } = await query(t.services, STORES, { first: 100 });
    expect(domainsOf(stores)).toEqual(EXPECTED.byRevenue);
    expect(stores.totalCount).toBe(EXPECTED.storeCount);
    expect(stores.totalCountExact).toBe(true);
    expect(stores.pageInfo.hasNextPage).toBe(false);
  });

  it.each([
    ['VISITS', EXPECTED.byVisits],
    ['RATING', EXPECTED.byRating],
    ['REVENUE', EXPECTED.byRevenue],
  ])('sorts by %s', async (sort, expected) => {
    const { stores } = await query(t.services, STORES, { sort, first: 100 });
    expect(domainsOf(stores)).toEqual(expected);
  });

  it('sorts newest first by first-seen date', async () => {
    const { stores } = await query(t.services, STORES, { sort: 'NEWEST', first: 2 });
    expect(domainsOf(stores)).toEqual(['quickship-uk.com', 'dropfast.shop']);
  });

  it('pages with first/after: offsets never overlap and hasNextPage ends the walk', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const { stores }: any = await query(t.services, STORES, { first: 5, after });
      seen.push(...domainsOf(stores));
      expect(stores.totalCount).toBe(12);
      if (!stores.pageInfo.hasNextPage) break;
      after = stores.pageInfo.endCursor;
    }
    expect(seen).toEqual(EXPECTED.byRevenue);
  });

  it('maps REST offsets to cursors: after = offsetToCursor(offset - 1)', async () => {
    const { stores } = await query(t.services, STORES, { first: 2, after: offsetToCursor(9) });
    expect(domainsOf(stores)).toEqual(EXPECTED.byRevenue.slice(10, 12));
    expect(stores.pageInfo.hasNextPage).toBe(false);
  });

  it('filters by country (case-insensitive) and minimum visits', async () => {
    const { stores } = await query(t.services, STORES, {
      filter: { countryCode: 'gb', minVisits: 20_000 },
    });
    expect(domainsOf(stores)).toEqual(EXPECTED.gbAtLeast20kVisits);
    expect(stores.totalCount).toBe(3);
  });

  it('filters by vertical name case-insensitively, and by the dropshipper class', async () => {
    const apparel = await query(t.services, STORES, { filter: { vertical: 'APPAREL' } });
    expect(apparel.stores.totalCount).toBe(4);
    const dropshippers = await query(t.services, STORES, { filter: { isDropshipper: true } });
    expect(domainsOf(dropshippers.stores)).toEqual(EXPECTED.dropshippersByRevenue);
  });

  it('filters by industry, category, visits range and minimum revenue together', async () => {
    const { stores } = await query(t.services, STORES, {
      filter: { industry: 'fashion', category: 'clothing', maxVisits: 100_000, minRevenue: 30_000 },
    });
    expect(domainsOf(stores)).toEqual(['tartan-tees.co.uk']);
  });

  it('finds a brand by fuzzy name, and a pasted URL by its domain, closest first', async () => {
    const byName = await query(t.services, STORES, { filter: { q: 'acme' } });
    expect(domainsOf(byName.stores)[0]).toBe('acme-apparel.com');
    const byTypo = await query(t.services, STORES, { filter: { q: 'London Linnen' } });
    expect(domainsOf(byTypo.stores)[0]).toBe('london-linen.co.uk');
    // found by the typos alone: no other word of the name is typed right
    for (const q of ['Linnen', 'Lundon Linnen']) {
      const typosOnly = await query(t.services, STORES, { filter: { q } });
      expect(domainsOf(typosOnly.stores), q).toEqual(['london-linen.co.uk']);
    }
    const byUrl = await query(t.services, STORES, { filter: { q: 'https://www.glow-skin.com/' } });
    expect(domainsOf(byUrl.stores)).toEqual(['glow-skin.com']);
  });

  it('returns an empty page, not an error, when nothing matches', async () => {
    const { stores } = await query(t.services, STORES, { filter: { q: 'zzzzqqqq' } });
    expect(stores).toMatchObject({ totalCount: 0, edges: [], pageInfo: { hasNextPage: false } });
  });
});

describe('compareStores', () => {
  it('returns found stores in the order asked and lists missing domains in notFound', async () => {
    const { compareStores } = await query(
      t.services,
      `{ compareStores(domains: ["https://berlin-boots.de", "missing-shop.com", "www.acme-apparel.com", "acme-apparel.com"]) {
      stores { domain monthlyVisits } notFound } }`,
    );
    expect(compareStores).toEqual({
      stores: [
        { domain: 'berlin-boots.de', monthlyVisits: 70_000 },
        { domain: 'acme-apparel.com', monthlyVisits: 120_000 },
      ],
      notFound: ['missing-shop.com'],
    });
  });

  it.each([
    [['acme-apparel.com']],
    [Array.from({ length: 9 }, (_, i) => `shop-${i}.com`)],
    [['acme-apparel.com', 'www.acme-apparel.com']],
  ])('refuses %j with bad_request on domains', async (domains) => {
    const error = await failure(
      t.services,
      `query($d: [String!]!) { compareStores(domains: $d) { notFound } }`,
      { d: domains },
    );
    expect(error).toMatchObject({ code: 'bad_request', details: { parameter: 'domains' } });
  });
});

describe('node(id)', () => {
  it('round-trips the global ids of Store, Product and App', async () => {
    const { store, product, app } = await query(
      t.services,
      `{
      store(domain: "glow-skin.com") { id }
      product(domain: "glow-skin.com", handle: "night-cream") { id }
      app(slug: "klaviyo") { id }
    }`,
    );
    const { nodes } = await query(
      t.services,
      `query($ids: [ID!]!) { nodes(ids: $ids) {
      __typename id ... on Store { domain } ... on Product { handle } ... on App { slug } } }`,
      { ids: [store.id, product.id, app.id] },
    );
    expect(nodes).toEqual([
      { __typename: 'Store', id: store.id, domain: 'glow-skin.com' },
      { __typename: 'Product', id: product.id, handle: 'night-cream' },
      { __typename: 'App', id: app.id, slug: 'klaviyo' },
    ]);
    const { node } = await query(t.services, `query($id: ID!) { node(id: $id) { id } }`, {
      id: Buffer.from('Store:999999').toString('base64'),
    });
    expect(node).toBeNull();
  });
});
