// product(domain, handle) and products (search with at least one filter).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { EXPECTED, loadCatalogFixture } from '../support/catalog-fixture.ts';
import { failure, query } from '../graphql/support/execute.ts';

let t: CatalogTestServices;

beforeAll(async () => {
  t = await createTestServices();
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
});
afterAll(() => t?.close());

const PRODUCTS = `query($filter: ProductFilter!, $first: Int) {
  products(filter: $filter, first: $first) { totalCount edges { node { handle domain price currency isBestSeller } } }
}`;
const handles = (result: any) => result.products.edges.map((e: any) => e.node.handle);

describe('product(domain, handle)', () => {
  it('returns the product with its store; a URL domain is accepted', async () => {
    const { product } = await query(
      t.services,
      `{ product(domain: "https://www.berlin-boots.de/", handle: "chelsea-boot") {
      domain handle title price compareAtPrice currency isBestSeller bestSellerRank available variantCount updatedAt store { domain name } } }`,
    );
    expect(product).toEqual({
      domain: 'berlin-boots.de',
      handle: 'chelsea-boot',
      title: 'Chelsea Boot',
      price: 149,
      compareAtPrice: null,
      currency: 'EUR',
      isBestSeller: true,
      bestSellerRank: 1,
      available: true,
      variantCount: 1,
      updatedAt: '2025-12-31T00:00:00.000Z',
      store: { domain: 'berlin-boots.de', name: 'Berlin Boots' },
    });
  });

  it('reports USD for a product without its own currency', async () => {
    const { product } = await query(
      t.services,
      `{ product(domain: "acme-apparel.com", handle: "everyday-tee") { price currency } }`,
    );
    expect(product).toEqual({ price: 25, currency: 'USD' });
  });

  it('answers not_found with domain and handle', async () => {
    const error = await failure(
      t.services,
      `{ product(domain: "acme-apparel.com", handle: "no-such-thing") { handle } }`,
    );
    expect(error).toMatchObject({
      code: 'not_found',
      details: { domain: 'acme-apparel.com', handle: 'no-such-thing' },
    });
  });
});

describe('products', () => {
  it('lists best-sellers by rank across stores', async () => {
    const result = await query(t.services, PRODUCTS, { filter: { isBestSeller: true } });
    expect(handles(result)).toEqual(EXPECTED.bestSellers);
    expect(result.products.totalCount).toBe(5);
  });

  it('filters a price range, cheapest first', async () => {
    const result = await query(t.services, PRODUCTS, { filter: { priceMin: 20, priceMax: 40 } });
    expect(handles(result)).toEqual(EXPECTED.priced20to40);
  });

  it('searches titles (case-insensitive substring) and narrows to one store', async () => {
    const hoodie = await query(t.services, PRODUCTS, { filter: { q: 'HOODIE' } });
    expect(handles(hoodie)).toEqual(['classic-hoodie']);
    const acmeBestSellers = await query(t.services, PRODUCTS, {
      filter: { isBestSeller: true, domain: 'acme-apparel.com' },
    });
    expect(handles(acmeBestSellers)).toEqual(['classic-hoodie', 'everyday-tee']);
  });

  it('treats LIKE wildcards in q literally', async () => {
    const result = await query(t.services, PRODUCTS, { filter: { q: '%_' } });
    expect(result.products).toEqual({ totalCount: 0, edges: [] });
  });

  it('requires at least one of q, isBestSeller, priceMin, priceMax', async () => {
    const error = await failure(t.services, PRODUCTS, { filter: { domain: 'acme-apparel.com' } });
    expect(error).toMatchObject({
      code: 'bad_request',
      details: {
        parameter: 'q|isBestSeller|priceMin|priceMax',
        rule: 'at least one filter is required',
      },
    });
  });

  it('rejects a price range upside down', async () => {
    const error = await failure(t.services, PRODUCTS, { filter: { priceMin: 50, priceMax: 10 } });
    expect(error).toMatchObject({ code: 'bad_request', details: { parameter: 'priceMax' } });
  });
});

describe('products orderBy', () => {
  const ORDERED = `query($filter: ProductFilter!, $orderBy: ProductOrder, $first: Int, $after: String) {
    products(filter: $filter, orderBy: $orderBy, first: $first, after: $after) {
      totalCount nodes { handle price } pageInfo { endCursor hasNextPage } }
  }`;
  // every fixture product, by price high to low (hand-labelled from the fixture)
  const BY_PRICE_DESC = [
    'chelsea-boot',
    'classic-hoodie',
    'night-cream',
    'vitamin-c-serum',
    'everyday-tee',
    'posture-corrector',
    'led-strip-lights',
    'canvas-tote',
    'boot-wax',
  ];

  it('orders by PRICE in either direction, and pages without overlap', async () => {
    const desc = (
      await query(t.services, ORDERED, {
        filter: { priceMin: 0 },
        orderBy: { field: 'PRICE', direction: 'DESC' },
        first: 50,
      })
    ).products;
    expect(desc.nodes.map((n: any) => n.handle)).toEqual(BY_PRICE_DESC);
    const prices = desc.nodes.map((n: any) => n.price);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    const asc = (
      await query(t.services, ORDERED, {
        filter: { priceMin: 0 },
        orderBy: { field: 'PRICE', direction: 'ASC' },
        first: 50,
      })
    ).products;
    expect(asc.nodes.map((n: any) => n.handle)).toEqual([...BY_PRICE_DESC].reverse());

    const paged: string[] = [];
    let after: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = (
        await query(t.services, ORDERED, {
          filter: { priceMin: 0 },
          orderBy: { field: 'PRICE', direction: 'ASC' },
          first: 2,
          after,
        })
      ).products;
      paged.push(...page.nodes.map((n: any) => n.handle));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(paged).toEqual([...BY_PRICE_DESC].reverse());
  });

  it('orders a title search by PRICE; RELEVANCE is DESC only', async () => {
    const boots = (
      await query(t.services, ORDERED, {
        filter: { q: 'boot' },
        orderBy: { field: 'PRICE', direction: 'ASC' },
      })
    ).products;
    expect(boots.nodes.map((n: any) => n.handle)).toEqual(['boot-wax', 'chelsea-boot']);
    expect(boots.totalCount).toBe(2);
    expect(
      await failure(t.services, ORDERED, {
        filter: { q: 'boot' },
        orderBy: { field: 'RELEVANCE', direction: 'ASC' },
      }),
    ).toMatchObject({ code: 'bad_request', details: { parameter: 'orderBy.direction' } });
  });
});
