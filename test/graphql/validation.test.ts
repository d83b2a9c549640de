// Bad arguments are refused with bad_request before any query runs, and details.parameter names
// the GraphQL argument (first, after); the /v1 adapter renames the page ones to limit and offset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { failure } from './support/execute.ts';

let t: CatalogTestServices;

beforeAll(async () => {
  t = await createTestServices({ countStatements: true });
});
afterAll(() => t?.close());

const STORES = `query($filter: StoreFilter, $first: Int, $after: String) { stores(filter: $filter, first: $first, after: $after) { totalCount } }`;

describe('argument validation', () => {
  it.each([
    ['first above 100', 'first', STORES, { first: 101 }],
    ['first below 1', 'first', STORES, { first: 0 }],
    ['an after cursor not made by the API', 'after', STORES, { after: 'bm90LWEtY3Vyc29y' }],
    ['a 3-letter country code', 'countryCode', STORES, { filter: { countryCode: 'USA' } }],
    ['a one-letter q', 'q', STORES, { filter: { q: 'a' } }],
    ['negative minVisits', 'minVisits', STORES, { filter: { minVisits: -1 } }],
    ['maxVisits below minVisits', 'maxVisits', STORES, { filter: { minVisits: 10, maxVisits: 5 } }],
    ['an app search of one letter', 'q', `{ apps(q: "k") { totalCount } }`, {}],
    [
      'a bad product domain',
      'domain',
      `{ product(domain: "http://127.0.0.1", handle: "x") { handle } }`,
      {},
    ],
    [
      'a bad domain inside compare',
      'domains',
      `{ compareStores(domains: ["acme-apparel.com", "not a domain"]) { notFound } }`,
      {},
    ],
    [
      'a bad change-feed domain',
      'domain',
      `{ changes(filter: { domain: "nope" }) { totalCount } }`,
      {},
    ],
  ])('refuses %s with details.parameter %s', async (_case, parameter, source, variables) => {
    t.counter!.reset();
    const error = await failure(t.services, source, variables);
    expect(error.code).toBe('bad_request');
    expect(error.details).toMatchObject({ parameter, rule: expect.any(String) });
    // refused before reaching the database
    expect(t.counter!.statements).toBe(0);
  });
});
