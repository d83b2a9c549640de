// Fault: a gateway is killed (SIGKILL) after charging a store lookup and before answering it. The
// documented rule (docs.md, "Quotas"): a charge is provisional until its request ends; the charges
// of a process that died first are refunded by the next gateway. A lookup that was answered stays
// charged, even when its gateway is killed right after. The lookup is held between the two by a
// lock on the stores table, taken by the test.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKeysCommand } from '../../../app/cli/keys.ts';
import { loadConfig } from '../../../src/platform/config.ts';
import { loadCatalogFixture } from '../../support/catalog-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import { pollUntil } from '../../support/poll.ts';
import { skipWithout } from '../../support/skip-without.ts';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process.ts';
import { hasRedisServer, startOwnRedis, type OwnRedis } from '../support/redis-server.ts';

const ACCOUNT = 'killed-mid-request';
const STORE = 'acme-apparel.com';

describe.skipIf(skipWithout(hasRedisServer))(
  'a gateway killed between the charge and the answer (needs redis-server)',
  () => {
    let redis: OwnRedis;
    let db: TestDatabase;
    let reader: Redis;
    let key: string;
    let counters: { bucket: string; perKey: string };
    const prefix = `test-quota-${randomBytes(6).toString('hex')}`;
    const gateways: GatewayProcess[] = [];

    const start = async () => {
      const gateway = await startGatewayProcess(
        {
          DATABASE_URL: db.url,
          REDIS_URL: redis.url,
          QUOTA_REDIS_PREFIX: prefix,
          RESPONSE_CACHE_TTL_MS: '0',
          // a dead gateway's charges are refunded once its lease lapses: a short lease, as the
          // refund's rule does not depend on its length
          QUOTA_LEASE_MS: '3000',
        },
        150_000,
      );
      gateways.push(gateway);
      return gateway;
    };
    const kill = async (gateway: GatewayProcess) => {
      const exited = new Promise((resolve) => gateway.child.once('exit', resolve));
      gateway.child.kill('SIGKILL');
      await exited;
    };
    const charged = async () => ({
      bucket: Number((await reader.get(counters.bucket)) ?? 0),
      perKey: Number((await reader.get(counters.perKey)) ?? 0),
    });
    const lookUp = (gateway: GatewayProcess) =>
      fetch(`${gateway.baseUrl}/v1/stores/${STORE}`, {
        headers: { authorization: `Bearer ${key}` },
      });

    beforeAll(async () => {
      [redis, db] = await Promise.all([startOwnRedis(), createTestDatabase()]);
      const pool = new pg.Pool({ connectionString: db.url, max: 2 });
      await loadCatalogFixture(pool);
      const printed: string[] = [];
      const code = await runKeysCommand(
        ['create', '--account', ACCOUNT, '--plan', 'starter'],
        { out: (t) => printed.push(t), err: () => undefined },
        loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url, LOG_LEVEL: 'silent' }),
      );
      expect(code).toBe(0);
      key = printed[0]!.trim();
      const { rows } = await pool.query<{ id: number }>(
        `SELECT k.id FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.external_id = $1`,
        [ACCOUNT],
      );
      await pool.end();
      const day = new Date().toISOString().slice(0, 10);
      counters = {
        bucket: `${prefix}:day:${day}:account:${ACCOUNT}:storeLookups`,
        perKey: `${prefix}:day:${day}:key:${rows[0]!.id}`,
      };
      reader = new Redis(redis.url, { maxRetriesPerRequest: 2 });
    }, 120_000);
    afterAll(async () => {
      reader?.disconnect();
      for (const gateway of gateways) await gateway.stop();
      await redis?.stop();
      await db?.drop();
    });

    it('refunds the lookup whose gateway died before answering it, and keeps the one answered', async () => {
      const first = await start();
      // the lookup is charged, then waits on the stores table
      const lock = new pg.Client({ connectionString: db.url });
      await lock.connect();
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE stores IN ACCESS EXCLUSIVE MODE');
      const inFlight = lookUp(first).then(
        (response) => response.status,
        () => 'no answer',
      );
      await pollUntil(charged, (c) => c.bucket === 1 && c.perKey === 1, 15_000);
      await kill(first);
      expect(await inFlight).toBe('no answer');
      await lock.query('ROLLBACK');
      await lock.end();

      // the next gateway refunds it once the dead one's lease lapses
      const second = await start();
      expect(await pollUntil(charged, (c) => c.bucket === 0 && c.perKey === 0, 45_000)).toEqual({
        bucket: 0,
        perKey: 0,
      });

      // an answered lookup stays charged, even when its gateway is killed right after answering
      const answered = await lookUp(second);
      expect(answered.status).toBe(200);
      await answered.arrayBuffer();
      expect(await charged()).toEqual({ bucket: 1, perKey: 1 });
      // final once the answer is written: no provisional record is left for it
      await pollUntil(
        () => reader.keys(`${prefix}:provisional:*`),
        (records) => records.length === 0,
        5_000,
      );
      await kill(second);
      const third = await start();
      // every record of the dead gateways swept (only the live one's lease is listed), nothing taken back
      await pollUntil(
        () => reader.smembers(`${prefix}:provisional-owners`),
        (owners) => owners.length === 1,
        45_000,
      );
      expect(await charged()).toEqual({ bucket: 1, perKey: 1 });
      expect((await lookUp(third)).status).toBe(200);
      expect(await charged()).toEqual({ bucket: 2, perKey: 2 });
    }, 600_000);
  },
);
