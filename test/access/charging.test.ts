// A request is charged for what executes, and a refused request counts against nothing: GraphQL
// variables are read as execution coerces them (defaults, @skip/@include on defaults), fields that
// GraphQL merges execute and count once, an operation refused at coercion costs nothing, and a REST
// request refused for a malformed parameter costs nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { bearer, mintKey, startAccessServer, type AccessServer } from './access-server.ts';

const LIMITS = {
  starter: {
    perMinute: 1_000,
    perKeyDaily: null,
    daily: {
      storeSearches: 100,
      storeLookups: 1_000,
      productSearches: 1_000,
      productAppLookups: 1_000,
    },
  },
};

describe('charging what executes', () => {
  let db: TestDatabase;
  let server: AccessServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, { PLAN_LIMITS_JSON: JSON.stringify(LIMITS) });
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const graphql = (key: string, query: string, variables?: Record<string, unknown>) =>
    server.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: { query, variables },
    });
  /** store searches left today, read off a one-unit REST search (which itself costs one) */
  const storeSearchesLeft = async (key: string) =>
    Number(
      (await server.app.inject({ method: 'GET', url: '/v1/stores?limit=1', headers: bearer(key) }))
        .headers['x-ratelimit-remaining'],
    ) + 1;

  it('applies variable defaults and @skip/@include on defaults, as execution does', async () => {
    const key = await mintKey(server);
    const start = await storeSearchesLeft(key);
    const withDefault = await graphql(
      key,
      'query ($first: Int = 5) { stores(first: $first) { totalCount } }',
    );
    expect(withDefault.json().errors, withDefault.body).toBeUndefined();
    const skipped = await graphql(
      key,
      'query ($skip: Boolean = true) { a: stores(first: 1) { totalCount } b: storeGroups(groupBy: COUNTRY_CODE) @skip(if: $skip) { totalCount } }',
    );
    expect(skipped.json().errors, skipped.body).toBeUndefined();
    expect(skipped.json().data).toEqual({ a: { totalCount: 0 } });
    expect(await storeSearchesLeft(key)).toBe(start - 1 - 1 - 1);
  });

  it('counts fields GraphQL merges (the same response name) once, as they execute once', async () => {
    const key = await mintKey(server);
    const start = await storeSearchesLeft(key);
    const merged = await graphql(
      key,
      `{ ${Array(40).fill('stores(first: 1) { totalCount }').join(' ')} }`,
    );
    expect(merged.json().errors, merged.body).toBeUndefined();
    const aliased = await graphql(
      key,
      '{ a: stores(first: 1) { totalCount } b: stores(first: 1) { totalCount } }',
    );
    expect(aliased.json().errors).toBeUndefined();
    expect(await storeSearchesLeft(key)).toBe(start - 1 - 1 - 2);
  });

  it('charges nothing for an operation refused at variable coercion, nor a REST request refused as malformed', async () => {
    const key = await mintKey(server);
    const start = await storeSearchesLeft(key);
    const refused = await graphql(
      key,
      'query ($first: Int) { stores(first: $first) { totalCount } }',
      { first: 'ten' },
    );
    expect(refused.json().errors?.[0]?.extensions?.code).toBe('bad_request');
    for (const url of ['/v1/stores?limit=0', '/v1/stores?sort=nope', '/v1/stores?unknown=1']) {
      expect(
        (await server.app.inject({ method: 'GET', url, headers: bearer(key) })).statusCode,
        url,
      ).toBe(400);
    }
    expect(await storeSearchesLeft(key)).toBe(start - 1);
  });
});
