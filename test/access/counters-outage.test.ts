// Quota counters across a Redis outage: while Redis is gone an instance counts on its own, and
// what it counted is added to the shared counters once Redis is back, so a daily quota holds every
// request served during the outage. The Redis is the test's own redis-server.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCounters, OutageLedger, type Counters } from '../../src/access/counters.ts';
import { createLogger } from '../../src/platform/logger.ts';
import {
  hasRedisServer,
  startOwnRedis,
  type OwnRedis,
} from '../reliability/support/redis-server.ts';
import { skipWithout } from '../support/skip-without.ts';

describe('OutageLedger', () => {
  it('carries the net units of daily counters still in their window, not per-minute ones', () => {
    const ledger = new OutageLedger();
    ledger.note('day:a', 3, 3_600, 0);
    ledger.note('day:a', -1, 3_600, 1_000);
    ledger.note('minute:b', 2, 60, 60_000);
    ledger.note('day:c', 1, 3_600, 0);
    ledger.note('day:c', -1, 3_600, 0);
    expect(ledger.take(61_000)).toEqual([['day:a', 2, 3_539]]);
    expect(ledger.size).toBe(0);
  });
});

describe.skipIf(skipWithout(hasRedisServer))(
  'counters through a Redis outage (needs redis-server)',
  () => {
    let redis: OwnRedis;
    let counters: Counters;
    let reader: Redis;
    const prefix = `test-outage-${randomBytes(4).toString('hex')}`;

    beforeAll(async () => {
      redis = await startOwnRedis({ persistent: true });
      counters = createCounters({
        redisUrl: redis.url,
        keyPrefix: prefix,
        logger: createLogger('silent'),
      });
      reader = new Redis(redis.url, {
        lazyConnect: true,
        maxRetriesPerRequest: 1,
        retryStrategy: () => 100,
      });
    });
    afterAll(async () => {
      await counters?.close();
      reader?.disconnect();
      await redis?.close();
    });

    it('adds the units counted during the outage to Redis once it is back', async () => {
      const key = 'day:2026-11-25:account:acme:storeLookups';
      const sharedCount = async () =>
        Number((await reader.get(`${prefix}:${key}`).catch(() => null)) ?? 0);
      const waitForShared = async (n: number) => {
        for (
          const deadline = Date.now() + 15_000;
          Date.now() < deadline;
          await new Promise((r) => setTimeout(r, 100))
        ) {
          await Promise.resolve()
            .then(() => counters.read(key))
            .catch(() => null); // a call: what carries counts over runs before calls
          if ((await sharedCount()) >= n) break;
        }
        return sharedCount();
      };
      await counters.add(key, 3, 3_600);
      expect(await waitForShared(3)).toBe(3);
      await redis.stop();
      // counted on this instance meanwhile: the totals it reports go on from what it knows locally
      for (let i = 0; i < 5; i++) await counters.add(key, 1, 3_600);
      await counters.subtract(key, 1, 3_600); // a refused request gives its unit back
      await redis.start();
      // the next call after the reconnect carries the outage's 4 units over
      const shared = await waitForShared(7);
      // the 3 units from before the outage (kept by Redis's append-only file) and the outage's 4
      expect(shared).toBe(7);
      expect(Number(await reader.ttl(`${prefix}:${key}`))).toBeGreaterThan(3_500);
    });
  },
);
