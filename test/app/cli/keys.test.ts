import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKeysCommand } from '../../../app/cli/keys.ts';
import { loadConfig } from '../../../src/platform/config.ts';
import { openDatabase, type Database } from '../../../src/platform/database/database.ts';
import { createLogger } from '../../../src/platform/logger.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';

describe('npm run keys', () => {
  let testDb: TestDatabase;
  let db: Database;
  const config = () =>
    loadConfig({ NODE_ENV: 'test', DATABASE_URL: testDb.url, LOG_LEVEL: 'silent' });
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runKeysCommand(
      argv,
      { out: (t) => out.push(t), err: (t) => err.push(t) },
      config(),
    );
    return { code, out, err };
  };
  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await openDatabase({
      url: testDb.url,
      logger: createLogger('silent'),
      queryTimeoutMs: 5_000,
    });
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('creates a key, prints it once on stdout and stores only its SHA-256', async () => {
    const created = await run('create', '--account', 'acme', '--plan', 'starter', '--name', 'ci');
    expect(created.code).toBe(0);
    expect(created.out).toHaveLength(1);
    const key = created.out[0]!;
    expect(key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(created.err.join('\n')).toContain('shown only this once');

    const { rows } = await db.pool.query(
      'SELECT k.*, a.plan FROM api_keys k JOIN accounts a ON a.id = k.account_id',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(rows[0].plan).toBe('starter');
    expect(JSON.stringify(rows)).not.toContain(key);
  });

  it("stores a partner key's scope", async () => {
    expect(
      (await run('create', '--account', 'partner', '--plan', 'pro', '--scope', 'signals:read'))
        .code,
    ).toBe(0);
    const listed = await run('list', '--account', 'partner');
    expect(listed.out[1]).toMatch(/partner\s+pro\s+signals:read/);
  });

  it('refuses a free account and an unknown scope, creating nothing', async () => {
    const free = await run('create', '--account', 'freebie', '--plan', 'free');
    expect(free.code).toBe(1);
    expect(free.err.join('\n')).toContain('paid plan');
    expect((await run('create', '--account', 'x', '--plan', 'pro', '--scope', 'admin')).code).toBe(
      1,
    );
    expect(
      await db.prisma.apiKey.count({
        where: { account: { externalId: { in: ['freebie', 'x'] } } },
      }),
    ).toBe(0);
  });

  it('lists and revokes keys by id or displayed prefix', async () => {
    const listed = await run('list');
    expect(listed.out.slice(1).map((line) => line.split(/\s+/)[2])).toEqual(['acme', 'partner']);
    const acme = await db.prisma.apiKey.findFirstOrThrow({
      where: { account: { externalId: 'acme' } },
    });
    expect((await run('revoke', acme.prefix)).code).toBe(0);
    expect((await run('list')).out.slice(1).map((line) => line.split(/\s+/)[2])).toEqual([
      'partner',
    ]);
    expect((await run('list', '--all')).out.join('\n')).toMatch(/acme.*revoked/);
    expect((await run('revoke', '999')).code).toBe(1);
  });

  it('explains its usage on a mistake', async () => {
    const wrong = await run('create', '--plan', 'pro');
    expect(wrong.code).toBe(2);
    expect(wrong.err.join('\n')).toContain('usage:');
  });
});
