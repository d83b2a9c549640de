import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { bearer, mintKey, startAccessServer, type AccessServer } from './access-server.ts';

const LIMITS = {
  starter: {
    perMinute: 5,
    perKeyDaily: 1_000,
    daily: {
      storeSearches: 3,
      storeLookups: 1_000,
      productSearches: 1_000,
      productAppLookups: 1_000,
    },
  },
  pro: { perMinute: 1_000, perKeyDaily: 4 },
};

describe('quotas and rates', () => {
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

  const get = (url: string, key: string) =>
    server.app.inject({ method: 'GET', url, headers: bearer(key) });

  it('lets exactly the per-minute rate through a parallel burst, and 429s the rest with Retry-After', async () => {
    const key = await mintKey(server);
    const burst = await Promise.all(Array.from({ length: 12 }, () => get('/v1/apps', key)));
    const ok = burst.filter((r) => r.statusCode === 200);
    const limited = burst.filter((r) => r.statusCode === 429);
    expect([ok.length, limited.length]).toEqual([5, 7]);
    for (const res of limited) {
      expect(res.json().error).toMatchObject({
        code: 'rate_limited',
        details: { bucket: 'perMinute', limit: 5, window: 'minute' },
      });
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
    }
  });

  it("429s past the account's daily bucket, naming it, while its other buckets still serve", async () => {
    const key = await mintKey(server, { accountExternalId: 'daily-acct' });
    const secondKey = await mintKey(server, { accountExternalId: 'daily-acct' });
    expect((await get('/v1/stores', key)).statusCode).toBe(200);
    expect((await get('/v1/stores/compare?domains=a.com,b.com', key)).statusCode).toBe(200);
    const third = await get('/v1/analytics/overview', secondKey);
    expect(third.statusCode, "the bucket is the account's, whichever key").toBe(200);
    expect(third.headers['x-ratelimit-remaining']).toBe('0');

    const refused = await get('/v1/stores', key);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.details).toMatchObject({
      bucket: 'storeSearches',
      limit: 3,
      window: 'day',
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(60);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect((await get('/v1/apps', key)).statusCode).toBe(200);
  });

  it('does not count a refused request against the other limits', async () => {
    const key = await mintKey(server, { accountExternalId: 'refund-acct' });
    for (let i = 0; i < 3; i++) expect((await get('/v1/stores', key)).statusCode).toBe(200);
    expect((await get('/v1/stores', key)).statusCode).toBe(429);
    // 4 requests made, 3 served: the minute window (5) still has 2
    const res = await get('/v1/apps', key);
    expect(res.statusCode).toBe(200);
    expect(res.headers.ratelimit).toMatch(/"perMinute";r=1;/);
  });

  it('tells a refused request what was really used: its own headers do not count it (a newcomer read 57 units for 56 served)', async () => {
    const key = await mintKey(server, { accountExternalId: 'headers-acct' });
    const served = [];
    for (let i = 0; i < 5; i++) served.push(await get('/v1/apps/klaviyo', key));
    expect(served.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404]);
    const refusals = [];
    for (let i = 0; i < 3; i++) refusals.push(await get('/v1/apps/klaviyo', key));
    expect(refusals.map((r) => r.statusCode)).toEqual([429, 429, 429]);
    // 5 served, each one unit of productAppLookups and of the key's daily ceiling; the refusals cost nothing,
    // and every refusal's RateLimit header says so
    for (const refused of [...refusals, served[4]!]) {
      expect(refused.headers.ratelimit).toMatch(/"perKeyDaily";r=995;/);
      expect(refused.headers.ratelimit).toMatch(/"productAppLookups";r=995;/);
    }
    expect(refusals[0]!.headers.ratelimit).toMatch(/"perMinute";r=0;/);
  });

  it('holds each key to its daily ceiling', async () => {
    const key = await mintKey(server, { plan: 'pro' });
    for (let i = 0; i < 4; i++) expect((await get('/v1/apps', key)).statusCode).toBe(200);
    const refused = await get('/v1/apps', key);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.details).toMatchObject({
      bucket: 'perKeyDaily',
      limit: 4,
      window: 'day',
    });
    expect(
      (await get('/v1/apps', await mintKey(server, { plan: 'pro' }))).statusCode,
      'another key is not affected',
    ).toBe(200);
  });
});
