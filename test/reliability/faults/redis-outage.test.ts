// Fault: Redis stops and comes back. The gateway (a process of its own, as deployed) keeps
// answering while its Redis is gone, counting rate limits on its own instance, and the
// subscription a dashboard opened before the outage delivers again once Redis is back, on the same
// stream. The Redis here is the test's own redis-server; the machine's shared one is never touched.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogFixture } from '../../support/catalog-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import {
  startFixtureStorefronts,
  type FixtureStorefronts,
} from '../../scrapes/support/fixture-storefronts.ts';
import { isRunning, startGatewayProcess, type GatewayProcess } from '../support/gateway-process.ts';
import { hasRedisServer, startOwnRedis, type OwnRedis } from '../support/redis-server.ts';
import { subscribeOverSse } from '../support/sse-subscription.ts';
import { getJson, postJson } from '../support/http.ts';
import { pollUntil } from '../../support/poll.ts';
import { skipWithout } from '../../support/skip-without.ts';

/** open-dev mode's per-minute rate in this test: small enough to reach during the outage */
const PER_MINUTE = 40;

const OUTAGE_ROUTES = [
  '/v1/stores?limit=5',
  '/v1/stores/acme-apparel.com',
  '/v1/apps',
  '/v1/products?q=hoodie',
];

describe.skipIf(skipWithout(hasRedisServer))(
  'Redis stops and comes back (needs redis-server)',
  () => {
    let redis: OwnRedis;
    let db: TestDatabase;
    let fixtures: FixtureStorefronts;
    let gateway: GatewayProcess;

    beforeAll(async () => {
      [redis, db, fixtures] = await Promise.all([
        startOwnRedis(),
        createTestDatabase(),
        startFixtureStorefronts(),
      ]);
      const pool = new pg.Pool({ connectionString: db.url, max: 2 });
      await loadCatalogFixture(pool);
      await pool.end();
      gateway = await startGatewayProcess({
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        QUOTA_REDIS_PREFIX: `test-quota-${randomBytes(6).toString('hex')}`,
        PLAN_LIMITS_JSON: JSON.stringify({ openDev: { perMinute: PER_MINUTE } }),
        EGRESS_OVERRIDES: fixtures.overrides,
        EGRESS_HOST_INTERVAL_MS: '0',
      });
    });
    afterAll(async () => {
      await gateway?.stop();
      await Promise.all([redis?.close(), fixtures?.close()]);
      await db?.drop();
    });

    const scrapeDone = (id: string) => (event: any) =>
      event.data?.recentScrapes?.scrapeRequestId === id &&
      event.data.recentScrapes.status === 'DONE';

    it('answers on local limits while Redis is down, and the open subscription resumes when it returns', async () => {
      const subscription = await subscribeOverSse(
        `${gateway.baseUrl}/graphql`,
        'subscription { recentScrapes { scrapeRequestId domain status } }',
      );
      try {
        // before: the subscription delivers through Redis
        const before = await postJson(`${gateway.baseUrl}/v1/scrapes`, { domain: 'shop-a.test' });
        expect(before.status).toBe(202);
        await subscription.waitFor(scrapeDone(before.body.id));

        await redis.stop();
        const down = await pollUntil(
          () => getJson(`${gateway.baseUrl}/v1/health`),
          (h) => h.body.backends.redis.ok === false,
          15_000,
        );
        expect(down.status).toBe(200); // the service is degraded, not out of service
        expect(down.body.status).toBe('degraded');

        // during: every request answered, counted on this instance's own limiter (a fresh window)
        const statuses: number[] = [];
        for (let i = 0; i < PER_MINUTE + 4; i++) {
          const started = Date.now();
          const response = await getJson(
            `${gateway.baseUrl}${OUTAGE_ROUTES[i % OUTAGE_ROUTES.length]}`,
          );
          expect(Date.now() - started).toBeLessThan(5_000);
          statuses.push(response.status);
          if (response.status === 429) expect(response.body.error.code).toBe('rate_limited');
        }
        expect(statuses.slice(0, PER_MINUTE)).toEqual(Array(PER_MINUTE).fill(200));
        expect(statuses.slice(PER_MINUTE)).toEqual([429, 429, 429, 429]);

        await redis.start();
        await pollUntil(
          () => getJson(`${gateway.baseUrl}/v1/health`),
          (h) => h.body.backends.redis.ok === true,
          20_000,
        );

        // after: counters are Redis's again (an empty Redis: a new window), and the same stream
        // delivers; the limiter leaves its local window at its own next check, which on a loaded
        // machine may come a moment after health first sees Redis
        const after = await pollUntil(
          () => postJson(`${gateway.baseUrl}/v1/scrapes`, { domain: 'dropper.test' }),
          (response) => response.status !== 429,
          10_000,
          500,
        );
        expect(after.status).toBe(202);
        await subscription.waitFor(scrapeDone(after.body.id), 30_000);
        expect(subscription.ended).toBe(false);
        expect(isRunning(gateway)).toBe(true);
        expect(gateway.output()).not.toMatch(/uncaught|unhandled/i);
      } finally {
        subscription.close();
      }
    });
  },
);

describe.skipIf(skipWithout(hasRedisServer))(
  'a scrape that ends while Redis is down (needs redis-server)',
  () => {
    let redis: OwnRedis;
    let db: TestDatabase;
    let fixtures: FixtureStorefronts;
    let gateway: GatewayProcess;

    beforeAll(async () => {
      [redis, db, fixtures] = await Promise.all([
        startOwnRedis(),
        createTestDatabase(),
        startFixtureStorefronts(),
      ]);
      gateway = await startGatewayProcess({
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        QUOTA_REDIS_PREFIX: `test-quota-${randomBytes(6).toString('hex')}`,
        EGRESS_OVERRIDES: fixtures.overrides,
        EGRESS_HOST_INTERVAL_MS: '0',
      });
    });
    afterAll(async () => {
      await gateway?.stop();
      await Promise.all([redis?.close(), fixtures?.close()]);
      await db?.drop();
    });

    const scrapeDone = (id: string) => (event: any) =>
      event.data?.recentScrapes?.scrapeRequestId === id &&
      event.data.recentScrapes.status === 'DONE';

    it('tells subscribers how a scrape ended while Redis was down (its event was never delivered) once Redis is back', async () => {
      fixtures.hold('/'); // the scrape waits in validating until Redis is gone
      const requested = await postJson(`${gateway.baseUrl}/v1/scrapes`, {
        domain: 'shop-a.test',
        force: true,
      });
      expect(requested.status).toBe(202);
      const id = requested.body.id as string;
      const status = await subscribeOverSse(
        `${gateway.baseUrl}/graphql`,
        'subscription ($id: ID!) { scrapeStatus(id: $id) { id status } }',
        { id },
      );
      const recent = await subscribeOverSse(
        `${gateway.baseUrl}/graphql`,
        'subscription { recentScrapes { scrapeRequestId domain status } }',
      );
      try {
        await status.waitFor((e) => e.data?.scrapeStatus?.status !== undefined);
        await redis.stop();
        await pollUntil(
          () => getJson(`${gateway.baseUrl}/v1/health`),
          (h) => h.body.backends.redis.ok === false,
          15_000,
        );
        fixtures.release();
        // the scrape ends while nothing can be published
        await pollUntil(
          () => getJson(`${gateway.baseUrl}/v1/scrapes/${id}`),
          (r) => r.body.status === 'done',
          30_000,
        );
        expect(status.events.some((e) => e.data?.scrapeStatus?.status === 'DONE')).toBe(false);

        await redis.start();
        await status.waitFor((e) => e.data?.scrapeStatus?.status === 'DONE', 30_000);
        await recent.waitFor(scrapeDone(id), 30_000);
      } finally {
        status.close();
        recent.close();
      }
    });
  },
);
