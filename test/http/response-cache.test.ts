// The response cache of the catalog GET routes (src/http/response-cache.ts), on the real server:
// an answer is reused within RESPONSE_CACHE_TTL_MS and never after it, a finished scrape of a
// domain drops what could show that store at once, every request is still charged and answered
// with its own rate-limit headers, and nothing scoped to an account is ever cached.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogRoutes } from '../../rest/routes/index.ts';
import { isCacheableOperation, ResponseCache } from '../../src/http/response-cache.ts';
import { schema } from '../../src/gateway/schema.ts';
import { migrateJobQueue } from '../../src/platform/jobs/job-queue.ts';
import { publishScrape } from '../../src/scrapes/scrape-events.ts';
import type { ScrapeRecord } from '../../src/scrapes/scrape-record.ts';
import { bearer, mintKey, startAccessServer, type AccessServer } from '../access/access-server.ts';
import { loadCatalogFixture } from '../support/catalog-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

const DOMAIN = 'acme-apparel.com';
const OTHER = 'glow-skin.com';
const TTL_MS = 600;

const finishedScrape = (domain: string, status: 'done' | 'failed'): ScrapeRecord => {
  const now = new Date().toISOString();
  return {
    id: '00000000-0000-4000-8000-000000000001',
    domain,
    status,
    force: false,
    callbackUrl: null,
    failureReason: status === 'failed' ? 'the storefront did not answer' : null,
    failureCode: status === 'failed' ? 'unreachable' : null,
    createdAt: now,
    updatedAt: now,
    startedAt: now,
    finishedAt: now,
    expiresAt: now,
    accountId: null,
  };
};

async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 2_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the catalog response cache', () => {
  let db: TestDatabase;
  let server: AccessServer;
  let key: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, {
      RESPONSE_CACHE_TTL_MS: String(TTL_MS),
      PLAN_LIMITS_JSON: JSON.stringify({ starter: { perMinute: 1_000 } }),
    });
    await loadCatalogFixture(server.services.db.pool, server.services.legacy);
    key = await mintKey(server, { accountExternalId: 'cache-reader' });
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const get = (url: string, withKey = key) =>
    server.app.inject({ method: 'GET', url, headers: bearer(withKey) });
  const rename = (domain: string, name: string) =>
    server.services.db.pool.query('UPDATE stores SET name = $2 WHERE domain = $1', [domain, name]);
  const nameOf = async (domain: string) =>
    (await get(`/v1/stores/${domain}`)).json().name as string;

  it('reuses an answer within the TTL', async () => {
    // a TTL of a minute: the second read falls inside it however slow the machine is
    const long = await startAccessServer(db.url, { RESPONSE_CACHE_TTL_MS: '60000' });
    try {
      const longKey = await mintKey(long, { accountExternalId: 'cache-long' });
      const read = () =>
        long.app
          .inject({ method: 'GET', url: `/v1/stores/${DOMAIN}`, headers: bearer(longKey) })
          .then((r) => r.json());
      const first = await read();
      await rename(DOMAIN, 'Acme Renamed Quietly');
      expect((await read()).name).toBe(first.name);
    } finally {
      await long.close();
      await rename(DOMAIN, 'Acme Apparel');
    }
  });

  it('never serves an answer past the TTL', async () => {
    const first = await get(`/v1/stores/${DOMAIN}`);
    expect(first.statusCode).toBe(200);
    await rename(DOMAIN, 'Acme Renamed Quietly');
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 50));
    expect(await nameOf(DOMAIN)).toBe('Acme Renamed Quietly');
  });

  // a failed scrape may have rewritten the store before it failed (its legacy summary): it drops the same answers
  it.each(['done', 'failed'] as const)(
    'drops the scraped domain and every list that may show it as soon as the scrape ends %s, and keeps other stores',
    async (status) => {
      // a TTL of minutes for this test: only the event can make the change visible in time
      const slow = await startAccessServer(db.url, { RESPONSE_CACHE_TTL_MS: '60000' });
      try {
        const slowKey = await mintKey(slow, { accountExternalId: 'cache-slow' });
        const read = (url: string) =>
          slow.app.inject({ method: 'GET', url, headers: bearer(slowKey) }).then((r) => r.json());
        const profileBefore = await read(`/v1/stores/${DOMAIN}`);
        const searchBefore = await read('/v1/stores?q=acme');
        const otherBefore = await read(`/v1/stores/${OTHER}`);

        // a full URL names the same store: its answer is dropped with the canonical domain's
        const viaUrl = `/v1/stores/${encodeURIComponent(`https://www.${DOMAIN}/`)}`;
        expect((await read(viaUrl)).name).toBe(profileBefore.name);
        const renamed = `Acme After Scrape ${status}`;
        const visits = status === 'done' ? 424242 : 434343;
        await rename(DOMAIN, renamed);
        await slow.services.db.pool.query(
          'UPDATE stores SET monthly_visits = $2 WHERE domain = $1',
          [DOMAIN, visits],
        );
        await rename(OTHER, 'Glow Changed Unscraped');
        expect((await read(`/v1/stores/${DOMAIN}`)).name).toBe(profileBefore.name);
        // the search list stays cached too: read after the update, it still shows the old figure
        const searchCached = await read('/v1/stores?q=acme');
        expect(
          searchCached.data.find((card: { domain: string }) => card.domain === DOMAIN)
            .monthlyVisits,
        ).toBe(
          searchBefore.data.find((card: { domain: string }) => card.domain === DOMAIN)
            .monthlyVisits,
        );
        expect(
          searchBefore.data.find((card: { domain: string }) => card.domain === DOMAIN)
            .monthlyVisits,
        ).not.toBe(visits);

        await publishScrape(
          slow.services.pubsub,
          slow.services.logger,
          finishedScrape(DOMAIN, status),
        );
        const profileAfter = await until(
          () => read(`/v1/stores/${DOMAIN}`),
          (body) => body.name === renamed,
        );
        expect(profileAfter.name).toBe(renamed);
        expect((await read(viaUrl)).name).toBe(renamed);
        const searchAfter = await read('/v1/stores?q=acme');
        expect(
          searchAfter.data.find((card: { domain: string }) => card.domain === DOMAIN).monthlyVisits,
        ).toBe(visits);
        // a store nobody scraped keeps its cached answer until its TTL
        expect((await read(`/v1/stores/${OTHER}`)).name).toBe(otherBefore.name);
      } finally {
        await slow.close();
        await rename(DOMAIN, 'Acme Apparel');
        await rename(OTHER, 'Glow Skin');
      }
    },
  );

  it('still charges every request and answers each with its own rate-limit headers and request id', async () => {
    const limited = await startAccessServer(db.url, {
      RESPONSE_CACHE_TTL_MS: '60000',
      PLAN_LIMITS_JSON: JSON.stringify({ starter: { perMinute: 3 } }),
    });
    try {
      const limitedKey = await mintKey(limited, {
        accountExternalId: `cache-quota-${randomBytes(3).toString('hex')}`,
      });
      const answers = [];
      const started = Date.now();
      for (let i = 0; i < 4; i++) {
        answers.push(
          await limited.app.inject({
            method: 'GET',
            url: `/v1/stores/${OTHER}`,
            headers: bearer(limitedKey),
          }),
        );
      }
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
      expect(answers.slice(0, 3).map((r) => r.headers['x-ratelimit-remaining'])).toEqual([
        '2',
        '1',
        '0',
      ]);
      // the per-minute window opened with the first request: what is left of its 60 s, rounded up
      const elapsedSeconds = Math.ceil((Date.now() - started) / 1000);
      const retryAfter = Number(answers[3]!.headers['retry-after']);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(retryAfter).toBeGreaterThanOrEqual(60 - elapsedSeconds);
      expect(answers[3]!.json().error.details).toMatchObject({
        bucket: 'perMinute',
        limit: 3,
        retryAfter,
      });
      expect(new Set(answers.map((r) => r.headers['x-request-id'])).size).toBe(4);
      expect(answers[1]!.body).toBe(answers[0]!.body);
      expect(answers[1]!.headers['content-type']).toBe('application/json; charset=utf-8');
      // a missing key is still refused, cached answer or not
      expect(
        (await limited.app.inject({ method: 'GET', url: `/v1/stores/${OTHER}` })).statusCode,
      ).toBe(401);
    } finally {
      await limited.close();
    }
  });

  it('caches only GET routes that answer every caller alike (their fields say cache public): never scrapes or Signals', () => {
    const cached = catalogRoutes.filter((route) => isCacheableOperation(schema, route.document));
    expect(cached.map((route) => route.tag).sort()).toEqual(
      catalogRoutes
        .filter(
          (r) =>
            r.method === 'GET' &&
            ['Stores', 'Products', 'Changes', 'Analytics', 'Apps'].includes(r.tag),
        )
        .map((r) => r.tag)
        .sort(),
    );
    for (const route of cached) expect(route.method, route.operationId).toBe('GET');
    // a bulk lookup is charged per store it found, in its resolver: a shared answer would skip the charge
    const lookup = catalogRoutes.find((r) => r.operationId === 'lookupStores')!;
    expect(isCacheableOperation(schema, lookup.document)).toBe(false);
    expect(
      catalogRoutes
        .filter((r) => r.tag === 'Scrapes' || r.tag === 'Signals')
        .some((r) => isCacheableOperation(schema, r.document)),
    ).toBe(false);
  });

  it("never shows one account's scrape request to another, however often the owner read it", async () => {
    await migrateJobQueue(server.services.db.pool);
    const owner = await mintKey(server, { accountExternalId: 'cache-owner' });
    const stranger = await mintKey(server, { accountExternalId: 'cache-stranger' });
    const ordered = await server.app.inject({
      method: 'POST',
      url: '/v1/scrapes',
      headers: bearer(owner),
      payload: { domain: `shop-${randomBytes(4).toString('hex')}.example` },
    });
    expect(ordered.statusCode, ordered.body).toBe(202);
    const id = ordered.json().id as string;
    for (let i = 0; i < 2; i++)
      expect((await get(`/v1/scrapes/${id}`, owner)).statusCode).toBe(200);
    const foreign = await get(`/v1/scrapes/${id}`, stranger);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toMatchObject({ code: 'not_found' });
  });
});

describe('ResponseCache', () => {
  const answer = (body: string) => ({ status: 200, body });

  it('runs one load for concurrent misses of a key, and keeps its answer', async () => {
    const cache = new ResponseCache({ ttlMs: 60_000 });
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = async () => {
      loads++;
      await gate;
      return answer('{"n":1}');
    };
    const pending = [1, 2, 3].map(() => cache.getOrLoad('k', undefined, load));
    release();
    expect((await Promise.all(pending)).map((r) => r.body)).toEqual([
      '{"n":1}',
      '{"n":1}',
      '{"n":1}',
    ]);
    expect(await cache.getOrLoad('k', undefined, load)).toEqual(answer('{"n":1}'));
    expect(loads).toBe(1);
  });

  it('does not keep an answer read before an invalidation, nor let later requests join that read', async () => {
    const cache = new ResponseCache({ ttlMs: 60_000 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const early = cache.getOrLoad('profile', 'a.com', async () => {
      await gate;
      return answer('old');
    });
    cache.invalidateDomain('a.com');
    const late = cache.getOrLoad('profile', 'a.com', async () => answer('new'));
    release();
    expect((await early).body).toBe('old');
    expect((await late).body).toBe('new');
    expect((await cache.getOrLoad('profile', 'a.com', async () => answer('newer'))).body).toBe(
      'new',
    );
  });

  it('invalidates a domain with every answer not about one domain, and keeps other domains', async () => {
    const cache = new ResponseCache({ ttlMs: 60_000 });
    await cache.getOrLoad('profile a', 'a.com', async () => answer('a'));
    await cache.getOrLoad('profile b', 'b.com', async () => answer('b'));
    await cache.getOrLoad('search', undefined, async () => answer('list'));
    cache.invalidateDomain('a.com');
    expect(cache.size).toBe(1);
    expect((await cache.getOrLoad('profile b', 'b.com', async () => answer('b2'))).body).toBe('b');
  });

  it('keys canonical parameters alike whatever their order, and different parameters apart', () => {
    expect(ResponseCache.keyOf('searchStores', { q: 'a', limit: 5 })).toBe(
      ResponseCache.keyOf('searchStores', { limit: 5, q: 'a' }),
    );
    expect(ResponseCache.keyOf('searchStores', { q: 'a' })).not.toBe(
      ResponseCache.keyOf('searchStores', { q: 'b' }),
    );
    expect(ResponseCache.keyOf('getStore', { domain: 'a.com' })).not.toBe(
      ResponseCache.keyOf('getApp', { domain: 'a.com' }),
    );
  });
});
