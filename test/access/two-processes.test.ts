// Two gateway processes (two `tsx app/main.ts`, as two replicas would run) on one PostgreSQL and
// one Redis share their counters: together they let exactly the per-minute rate through.
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKeysCommand } from '../../app/cli/keys.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { uniquePrefix } from './access-server.ts';
import { freePort } from '../support/free-port.ts';
import { skipWithout } from '../support/skip-without.ts';

const REDIS_URL = process.env.REDIS_URL;
const PER_MINUTE = 6;

async function waitForHealth(
  port: number,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`replica exited early:\n${output()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`replica not healthy within 60 s:\n${output()}`);
}

describe.skipIf(skipWithout(REDIS_URL))(
  'two server processes sharing one Redis (needs REDIS_URL)',
  () => {
    let db: TestDatabase;
    const prefix = uniquePrefix();
    const replicas: Array<{ port: number; child: ChildProcess }> = [];
    const keys: string[] = [];

    beforeAll(async () => {
      db = await createTestDatabase();
      const env = {
        ...process.env,
        DATABASE_URL: db.url,
        REDIS_URL,
        QUOTA_REDIS_PREFIX: prefix,
        PLAN_LIMITS_JSON: JSON.stringify({ starter: { perMinute: PER_MINUTE } }),
        SEED_STORES: '0',
        WORKER_IN_PROCESS: 'false',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
      };
      for (const account of ['two-replicas-a', 'two-replicas-b']) {
        const code = await runKeysCommand(
          ['create', '--account', account, '--plan', 'starter'],
          { out: (t) => keys.push(t), err: () => undefined },
          loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url, LOG_LEVEL: 'silent' }),
        );
        expect(code).toBe(0);
      }
      for (let i = 0; i < 2; i++) {
        const port = await freePort();
        const child = spawn('node_modules/.bin/tsx', ['app/main.ts'], {
          env: { ...env, PORT: String(port) },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout?.on('data', (c) => (output += c));
        child.stderr?.on('data', (c) => (output += c));
        replicas.push({ port, child });
        await waitForHealth(port, child, () => output);
      }
    });

    afterAll(async () => {
      await Promise.all(
        replicas.map(
          ({ child }) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
            }),
        ),
      );
      const redis = new Redis(REDIS_URL!);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      await db?.drop();
    });

    const get = (replica: number, key: string) =>
      fetch(`http://127.0.0.1:${replicas[replica]!.port}/v1/apps`, {
        headers: { authorization: `Bearer ${key}` },
      });

    it('counts one key across both processes: half the rate on each, then both refuse', async () => {
      const key = keys[0]!;
      for (let i = 0; i < PER_MINUTE; i++) expect((await get(i % 2, key)).status).toBe(200);
      const [a, b] = [await get(0, key), await get(1, key)];
      expect([a.status, b.status]).toEqual([429, 429]);
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await b.json()).error.code).toBe('rate_limited');
    });

    it('lets exactly the per-minute rate through a parallel burst spread over both processes', async () => {
      const key = keys[1]!;
      const burst = await Promise.all(
        Array.from({ length: PER_MINUTE * 2 }, (_, i) => get(i % 2, key)),
      );
      const statuses = burst.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(PER_MINUTE);
      expect(statuses.filter((s) => s === 429)).toHaveLength(PER_MINUTE);
    });
  },
);
