import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function seedCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  delete env.MONGODB_URL;
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/seed/cli.ts', ...args], {
      cwd: ROOT,
      env,
    });
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
    const appended = await seedCli(['--stores', '5', '--append', '--json', '--database-url', db.url]);
    expect(appended.code).toBe(0);
    expect(JSON.parse(appended.stdout)).toMatchObject({ stores: 5, firstStoreId: 31, mode: 'append' });
  });

  it('explains bad arguments', async () => {
    const result = await seedCli(['--stores', 'many']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--stores must be an integer/);
    expect(result.stderr).toMatch(/usage: npm run seed/);
  });
});
