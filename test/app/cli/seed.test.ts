import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

async function seedCli(
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...extraEnv };
  delete env.MONGODB_URL;
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'app/cli/seed.ts', ...args],
      {
        cwd: ROOT,
        env,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run seed', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('seeds the given database and prints what it wrote', async () => {
    const result = await seedCli(['--stores', '30', '--seed', 'demo', '--database-url', db.url]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/seeded 30 stores \(ids 1-30, seed demo/);
    expect(result.stdout).toMatch(/store_daily_snapshots\s+5,400/);
    expect(result.stdout).toMatch(/database size: [\d.]+ MB/);
  });

  it('refuses a catalog with stores unless --append or --reset', async () => {
    const refused = await seedCli(['--stores', '5', '--database-url', db.url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already holds 30 stores; pass --append .* or --reset/);
    const appended = await seedCli([
      '--stores',
      '5',
      '--append',
      '--json',
      '--database-url',
      db.url,
    ]);
    expect(appended.code).toBe(0);
    expect(JSON.parse(appended.stdout)).toMatchObject({
      stores: 5,
      firstStoreId: 31,
      mode: 'append',
    });
  });

  it('explains what to do instead while a server runs on its DATA_DIR (no stack trace)', async () => {
    // a DATA_DIR as a running `npm start` leaves it: a cluster, and the live node process that owns it
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sig-seed-cli-'));
    try {
      await mkdir(path.join(dataDir, 'postgres'), { recursive: true });
      await writeFile(path.join(dataDir, 'postgres', 'PG_VERSION'), '18\n');
      await writeFile(path.join(dataDir, 'postgres.password'), 'secret');
      await writeFile(path.join(dataDir, 'owner.pid'), `${process.pid}\n`);
      const env: NodeJS.ProcessEnv = { DATA_DIR: dataDir, DATABASE_URL: '' };
      const result = await seedCli(['--stores', '5'], env);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(
        `The server (process ${process.pid}) is running on DATA_DIR ${dataDir}`,
      );
      expect(result.stderr).toMatch(/stop the server .* run npm run seed -- --stores 5 again/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('explains bad arguments', async () => {
    const result = await seedCli(['--stores', 'many']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--stores must be an integer/);
    expect(result.stderr).toMatch(/usage: npm run seed/);
  });
});
