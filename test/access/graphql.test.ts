import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import {
  bearer,
  mintKey,
  SERVICE_TOKEN,
  startAccessServer,
  type AccessServer,
} from './access-server.ts';

const LIMITS = { starter: { perMinute: 100, daily: { storeSearches: 2 }, resultWindow: 50 } };

describe('/graphql under the same access rules', () => {
  let db: TestDatabase;
  let server: AccessServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, { PLAN_LIMITS_JSON: JSON.stringify(LIMITS) });
    await mintKey(server); // ends open-dev mode
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const graphql = (
    query: string,
    headers: Record<string, string> = {},
    variables?: Record<string, unknown>,
  ) =>
    server.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', ...headers },
      payload: { query, variables },
    });

  it('needs a key for data, not for introspection', async () => {
    const data = await graphql('{ stores { totalCount } }');
    expect(data.statusCode).toBe(401);
    expect(data.json().errors[0].extensions.code).toBe('unauthorized');
    const introspection = await graphql('{ __schema { queryType { name } } }');
    expect(introspection.statusCode).toBe(200);
    expect(introspection.json().data.__schema.queryType.name).toBe('Query');
  });

  it('charges each root field in its bucket and shares the buckets with REST', async () => {
    const key = await mintKey(server);
    const first = await graphql('{ a: stores { totalCount } b: apps { totalCount } }', bearer(key));
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-policy']).toContain('"storeSearches";q=2');
    expect(first.headers['ratelimit-policy']).toContain('"productAppLookups"');
    expect(
      (await server.app.inject({ method: 'GET', url: '/v1/stores', headers: bearer(key) }))
        .statusCode,
    ).toBe(200);

    const refused = await graphql(
      '{ storeGroups(groupBy: COUNTRY_CODE) { totalCount } }',
      bearer(key),
    );
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.json().errors[0].extensions).toMatchObject({
      code: 'rate_limited',
      details: { bucket: 'storeSearches', window: 'day' },
    });
    expect(refused.json().data ?? null).toBeNull();
  });

  it('cannot be used to get around a quota through fragments or aliases', async () => {
    const key = await mintKey(server);
    const res = await graphql(
      'query { ...Two } fragment Two on Query { x: stores { totalCount } y: stores { totalCount } z: stores { totalCount } }',
      bearer(key),
    );
    expect(res.statusCode).toBe(429);
  });

  it('tells in extensions.quota what the operation was charged and what is left', async () => {
    const key = await mintKey(server);
    const res = await graphql('{ a: stores { totalCount } b: apps { totalCount } }', bearer(key));
    expect(res.statusCode).toBe(200);
    const { quota } = res.json().extensions;
    // two root fields, one request each, each to its own bucket (docs.md: apps are product and app lookups)
    expect(quota.charged).toEqual({
      requests: 2,
      buckets: { storeSearches: 1, productAppLookups: 1 },
    });
    const byPolicy = Object.fromEntries(quota.limits.map((l: { policy: string }) => [l.policy, l]));
    expect(byPolicy.perMinute).toMatchObject({ limit: 100, remaining: 98 });
    expect(byPolicy.storeSearches).toMatchObject({ limit: 2, remaining: 1 });
    expect(res.headers['x-ratelimit-remaining']).toBe('1'); // the header names the tightest limit
  });

  it("keeps lists inside the plan's result window, naming GraphQL's arguments", async () => {
    const key = await mintKey(server);
    const res = await graphql('{ apps(first: 60) { totalCount } }', bearer(key));
    expect(res.json().errors[0].message).toBe(
      'The starter plan lists at most 50 items deep: the position after `after` + `first` must not exceed 50.',
    );
    expect(res.json().errors[0].extensions).toMatchObject({
      code: 'bad_request',
      details: {
        parameter: 'after',
        rule: 'the position after `after` + `first` must be at most 50 on the starter plan',
      },
    });
  });

  it("says there is no next page at the edge of the plan's result window, though more items exist", async () => {
    await server.services.db.pool.query(
      `INSERT INTO stores (domain, name) SELECT 'window-' || i || '.test', 'Window ' || i FROM generate_series(1, 60) i
       ON CONFLICT (domain) DO NOTHING`,
    );
    const key = await mintKey(server);
    const page = async (after?: string) =>
      (
        await graphql(
          'query($after: String) { stores(first: 25, after: $after) { totalCount edges { node { domain } } pageInfo { hasNextPage endCursor } } }',
          bearer(key),
          { after },
        )
      ).json().data.stores;
    const first = await page();
    expect(first.totalCount).toBeGreaterThan(50); // the catalog goes on past the window
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await page(first.pageInfo.endCursor);
    expect(second.edges).toHaveLength(25); // items 26 to 50: the last the starter plan lists
    expect(second.pageInfo.hasNextPage).toBe(false);
  });

  describe('key management for the web app', () => {
    const service = { 'x-service-token': SERVICE_TOKEN };
    const MINT =
      'mutation($input: MintApiKeyInput!) { mintApiKey(input: $input) { key apiKey { id apiKeyId prefix scopes } } }';

    it("mints, lists and revokes an account's keys, and reads its quota usage", async () => {
      const minted = await graphql(MINT, service, {
        input: { accountExternalId: 'web-1', plan: 'PRO', name: 'prod' },
      });
      expect(minted.statusCode).toBe(200);
      const { key, apiKey } = minted.json().data.mintApiKey;
      expect(key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
      expect(key.startsWith(apiKey.prefix)).toBe(true);

      expect(
        (await server.app.inject({ method: 'GET', url: '/v1/stores', headers: bearer(key) }))
          .statusCode,
      ).toBe(200);
      const usage = await graphql(
        '{ quotaUsage(accountExternalId: "web-1") { bucket used limit remaining } }',
        service,
      );
      expect(usage.json().data.quotaUsage).toContainEqual({
        bucket: 'STORE_SEARCHES',
        used: 1,
        limit: 5_000,
        remaining: 4_999,
      });

      const listed = await graphql(
        '{ apiKeys(accountExternalId: "web-1") { id apiKeyId name } }',
        service,
      );
      expect(listed.json().data.apiKeys).toEqual([
        { id: apiKey.id, apiKeyId: apiKey.apiKeyId, name: 'prod' },
      ]);
      const revoked = await graphql(
        `mutation { revokeApiKey(accountExternalId: "web-1", id: ${apiKey.apiKeyId}) { revokedAt } }`,
        service,
      );
      expect(revoked.json().data.revokeApiKey.revokedAt).toEqual(expect.any(String));
      expect(
        (await server.app.inject({ method: 'GET', url: '/v1/stores', headers: bearer(key) }))
          .statusCode,
      ).toBe(401);
    });

    it('refuses a free account with a clear forbidden error', async () => {
      const res = await graphql(MINT, service, {
        input: { accountExternalId: 'web-free', plan: 'FREE' },
      });
      expect(res.json().errors[0].extensions).toMatchObject({
        code: 'unauthorized',
        details: { reason: 'plan', plan: 'free' },
      });
      expect(res.json().errors[0].message).toContain('paid plan');
    });

    it("stores a partner key's signals:read scope", async () => {
      const res = await graphql(MINT, service, {
        input: { accountExternalId: 'partner-1', plan: 'PRO', scopes: ['signals:read'] },
      });
      expect(res.json().data.mintApiKey.apiKey.scopes).toEqual(['signals:read']);
    });

    it('is refused to API keys, to callers without credential and to a wrong service token', async () => {
      const key = await mintKey(server);
      const input = { input: { accountExternalId: 'web-2', plan: 'PRO' } };
      expect((await graphql(MINT, bearer(key), input)).json().errors[0].extensions).toMatchObject({
        code: 'unauthorized',
        details: { reason: 'scope' },
      });
      expect((await graphql(MINT, {}, input)).json().errors[0].extensions.code).toBe(
        'unauthorized',
      );
      const wrong = await graphql(MINT, { 'x-service-token': 'x'.repeat(40) }, input);
      expect(wrong.statusCode).toBe(401);
      expect(
        await server.services.db.prisma.account.count({ where: { externalId: 'web-2' } }),
      ).toBe(0);
    });
  });
});
