import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBucketKey, utcDay } from '../../src/access/quota.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import {
  bearer,
  mintKey,
  startAccessServer,
  uniquePrefix,
  type AccessServer,
} from './access-server.ts';
import { skipWithout } from '../support/skip-without.ts';

const REDIS_URL = process.env.REDIS_URL;

describe('counters shared through Redis', () => {
  let db: TestDatabase;
  let replicas: AccessServer[] = [];
  let redis: Redis;
  const prefix = uniquePrefix();
  beforeAll(async () => {
    db = await createTestDatabase();
    if (!REDIS_URL) return;
    const env = {
      REDIS_URL,
      QUOTA_REDIS_PREFIX: prefix,
      PLAN_LIMITS_JSON: JSON.stringify({ starter: { perMinute: 6, daily: { storeSearches: 10 } } }),
    };
    replicas = [await startAccessServer(db.url, env), await startAccessServer(db.url, env)];
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    if (redis) {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
    await db?.drop();
  });

  it.skipIf(skipWithout(REDIS_URL))(
    'lets exactly the per-minute rate through two replicas together (needs REDIS_URL)',
    async () => {
      const key = await mintKey(replicas[0]!);
      const burst = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          replicas[i % 2]!.app.inject({ method: 'GET', url: '/v1/apps', headers: bearer(key) }),
        ),
      );
      expect(burst.filter((r) => r.statusCode === 200)).toHaveLength(6);
      expect(burst.filter((r) => r.statusCode === 429)).toHaveLength(6);
    },
  );

  it.skipIf(skipWithout(REDIS_URL))(
    "shares the daily bucket with the web app's counter (needs REDIS_URL)",
    async () => {
      const key = await mintKey(replicas[0]!, { accountExternalId: 'shared-acct' });
      // the web app counts its own store searches on the same key
      await redis.incrby(
        `${prefix}:${accountBucketKey(utcDay(new Date()), 'shared-acct', 'storeSearches')}`,
        9,
      );
      expect(
        (await replicas[1]!.app.inject({ method: 'GET', url: '/v1/stores', headers: bearer(key) }))
          .statusCode,
      ).toBe(200);
      const refused = await replicas[0]!.app.inject({
        method: 'GET',
        url: '/v1/stores',
        headers: bearer(key),
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.details.bucket).toBe('storeSearches');
    },
  );
});

describe('a failing Redis', () => {
  let db: TestDatabase;
  let server: AccessServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    // nothing listens on port 1: every Redis call fails
    server = await startAccessServer(db.url, {
      REDIS_URL: 'redis://127.0.0.1:1',
      PLAN_LIMITS_JSON: JSON.stringify({ starter: { perMinute: 3 } }),
    });
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it("keeps serving on this instance's own counts, with a warning, never a 500", async () => {
    const key = await mintKey(server);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await server.app.inject({ method: 'GET', url: '/v1/apps', headers: bearer(key) }))
          .statusCode,
      );
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(server.logLines.some((line) => line.includes('counted on this instance only'))).toBe(
      true,
    );
  });
});
