import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { pollUntil } from '../support/poll.ts';
import { revokeApiKey } from '../../src/access/api-keys.ts';
import { bearer, mintKey, startAccessServer, type AccessServer } from './access-server.ts';

const DISCOVERY = [
  '/',
  '/v1/llms.txt',
  '/v1/docs.md',
  '/v1/openapi.json',
  '/v1/health',
  '/v1/examples',
];

describe('open-dev mode (no key exists, NODE_ENV=test)', () => {
  let db: TestDatabase;
  let server: AccessServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url);
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('serves data routes without a key, with the rate-limit headers, and says so loudly', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/v1/stores' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('600');
    expect(res.headers['ratelimit-policy']).toBe('"perMinute";q=600;w=60');
    expect(server.logLines.some((line) => line.includes('OPEN-DEV MODE'))).toBe(true);
    const health = await server.app.inject({ method: 'GET', url: '/v1/health' });
    expect(health.json().openDevMode).toBe(true);
  });

  it('ends as soon as a key exists, even one minted by another process', async () => {
    const key = await mintKey(server);
    const without = await server.app.inject({ method: 'GET', url: '/v1/stores' });
    expect(without.statusCode).toBe(401);
    expect(without.json()).toEqual({
      error: {
        code: 'unauthorized',
        message: expect.stringContaining('API key is required'),
        details: null,
      },
    });
    // a self-hoster has no web app: the message says how to mint a key on this server
    expect(without.json().error.message).toContain(
      'npm run keys -- create --account ACCOUNT --plan starter',
    );
    expect((await server.app.inject({ method: 'GET', url: '/v1/health' })).json().openDevMode).toBe(
      false,
    );
    expect(
      (await server.app.inject({ method: 'GET', url: '/v1/stores', headers: bearer(key) }))
        .statusCode,
    ).toBe(200);
  });
});

describe('API keys on data routes', () => {
  let db: TestDatabase;
  let server: AccessServer;
  let key: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, {
      PLAN_LIMITS_JSON: JSON.stringify({ starter: { perMinute: 3, resultWindow: 50 } }),
    });
    key = await mintKey(server, { accountExternalId: 'acme' });
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('accepts the key as Authorization: Bearer and as X-Api-Key', async () => {
    const viaBearer = await server.app.inject({
      method: 'GET',
      url: '/v1/analytics/overview',
      headers: bearer(key),
    });
    const viaHeader = await server.app.inject({
      method: 'GET',
      url: '/v1/analytics/overview',
      headers: { 'x-api-key': key },
    });
    expect([viaBearer.statusCode, viaHeader.statusCode]).toEqual([200, 200]);
  });

  it('answers a missing, unknown, malformed or revoked key with the 401 envelope', async () => {
    const other = await mintKey(server);
    await revokeApiKey(
      server.services.db.prisma,
      (await server.services.db.prisma.apiKey.findFirstOrThrow({ orderBy: { id: 'desc' } })).id,
    );
    const attempts = [
      {},
      bearer('sk_live_00000000000000000000000000000000'),
      { authorization: `Basic ${key}` },
      bearer(other),
    ];
    for (const headers of attempts) {
      const res = await server.app.inject({ method: 'GET', url: '/v1/stores', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });

  it('refuses a key in the query string with bad_request, unserved, and keeps it out of the logs', async () => {
    for (const url of [
      `/v1/stores?api_key=${key}`,
      `/v1/stores?q=acme&k=${key}`,
      `/v1/openapi.json?token=${key}`,
    ]) {
      const res = await server.app.inject({ method: 'GET', url, headers: bearer(key) });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'bad_request',
        details: { parameter: expect.any(String) },
      });
      expect(res.body).not.toContain(key);
      expect(res.headers['x-ratelimit-limit'], 'not served, so not charged').toBeUndefined();
    }
    expect(
      server.logLines.some(
        (line) => line.includes('request completed') && line.includes('/v1/stores'),
      ),
    ).toBe(true);
    expect(server.logLines.filter((line) => line.includes(key))).toEqual([]);
  });

  it('never authenticates nor limits the discovery routes', async () => {
    for (let round = 0; round < 2; round++) {
      for (const url of DISCOVERY) {
        const res = await server.app.inject({ method: 'GET', url });
        expect([200, 503], url).toContain(res.statusCode);
        expect(res.headers['x-ratelimit-limit'], url).toBeUndefined();
        expect(res.headers.ratelimit, url).toBeUndefined();
      }
    }
  });

  it('puts the rate-limit headers on every data response, errors included', async () => {
    const fresh = await mintKey(server);
    const res = await server.app.inject({
      method: 'GET',
      url: '/v1/stores/unknown-store.example',
      headers: bearer(fresh),
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers).toMatchObject({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '2',
      'ratelimit-policy':
        '"perMinute";q=3;w=60, "perKeyDaily";q=5000;w=86400, "storeLookups";q=2000;w=86400',
      ratelimit: expect.stringMatching(
        /^"perMinute";r=2;t=\d+, "perKeyDaily";r=4999;t=\d+, "storeLookups";r=1999;t=\d+$/,
      ),
    });
    expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    expect(Number(res.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60);
  });

  it("refuses a list past the plan's result window, naming offset", async () => {
    const fresh = await mintKey(server);
    const ok = await server.app.inject({
      method: 'GET',
      url: '/v1/stores?offset=30&limit=20',
      headers: bearer(fresh),
    });
    expect(ok.statusCode).toBe(200);
    const deep = await server.app.inject({
      method: 'GET',
      url: '/v1/stores?offset=31&limit=20',
      headers: bearer(fresh),
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().error.details).toEqual({
      parameter: 'offset',
      rule: 'offset + limit must be at most 50 on the starter plan',
    });
  });

  it("answers hasMore false on the page that reaches the plan's result window, and true there for a deeper plan", async () => {
    await server.services.db.pool.query(
      `INSERT INTO stores (domain, name) SELECT 'window-' || i || '.test', 'Window ' || i FROM generate_series(1, 60) i
       ON CONFLICT (domain) DO NOTHING`,
    );
    // a URL no other test reads, so no cached answer from before these stores
    const url = '/v1/stores?offset=40&limit=10';
    const starter = await server.app.inject({
      method: 'GET',
      url,
      headers: bearer(await mintKey(server)),
    });
    expect(starter.statusCode).toBe(200);
    expect(starter.json().page).toMatchObject({ offset: 40, count: 10, hasMore: false });
    expect(starter.json().page.total).toBeGreaterThan(50); // more stores exist, past the window
    // the same URL within the response cache's TTL, for a plan that lists deeper
    const pro = await server.app.inject({
      method: 'GET',
      url,
      headers: bearer(await mintKey(server, { plan: 'pro' })),
    });
    expect(pro.json().page).toMatchObject({ offset: 40, count: 10, hasMore: true });
  });

  it('refuses a key whose account is on the free plan with 403, code unauthorized, reason plan', async () => {
    const downgraded = await mintKey(server, { accountExternalId: 'downgraded' });
    await server.services.db.prisma.account.update({
      where: { externalId: 'downgraded' },
      data: { plan: 'free' },
    });
    const res = await server.app.inject({
      method: 'GET',
      url: '/v1/stores',
      headers: bearer(downgraded),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: 'unauthorized',
      details: { reason: 'plan', plan: 'free', requiredPlans: ['starter', 'pro'] },
    });
  });

  it('records when a key was last used', async () => {
    const used = await mintKey(server, { accountExternalId: 'last-used' });
    const keyRow = () =>
      server.services.db.prisma.apiKey.findFirstOrThrow({
        where: { account: { externalId: 'last-used' } },
      });
    expect((await keyRow()).lastUsedAt).toBeNull();
    const before = Date.now();
    expect(
      (
        await server.app.inject({
          method: 'GET',
          url: '/v1/analytics/overview',
          headers: bearer(used),
        })
      ).statusCode,
    ).toBe(200);
    // the use is recorded after the answer, without holding it up
    const row = await pollUntil(keyRow, (r) => r.lastUsedAt !== null, 5_000);
    expect(row.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before);
    expect(row.lastUsedAt!.getTime()).toBeLessThanOrEqual(Date.now());
  });
});

describe('NODE_ENV=production', () => {
  let db: TestDatabase;
  let server: AccessServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, { NODE_ENV: 'production' });
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('never runs in open-dev mode: no key is 401 even while no key exists', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/v1/stores' });
    expect(res.statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/v1/health' })).json().openDevMode).toBe(
      false,
    );
    expect(server.logLines.some((line) => line.includes('OPEN-DEV MODE'))).toBe(false);
  });
});

describe('keys on one keep-alive connection', () => {
  let db: TestDatabase;
  let server: AccessServer;
  let base: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url);
    base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('judges each request by the key it carries, when the connection carried another before', async () => {
    const live = await mintKey(server, { accountExternalId: 'live-acct' });
    const revoked = await mintKey(server, { accountExternalId: 'revoked-acct' });
    await revokeApiKey(server.services.db.prisma, revoked.slice(0, 12));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (key: string) =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const request = http.get(`${base}/v1/apps`, { agent, headers: bearer(key) }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, reused: request.reusedSocket }));
        });
        request.on('error', reject);
      });
    try {
      expect(await get(live)).toEqual({ status: 200, reused: false });
      expect(await get(revoked)).toEqual({ status: 401, reused: true });
      expect(await get(live)).toEqual({ status: 200, reused: true });
      expect(await get(`${live.slice(0, -1)}${live.endsWith('a') ? 'b' : 'a'}`)).toEqual({
        status: 401,
        reused: true,
      });
    } finally {
      agent.destroy();
    }
  });
});
