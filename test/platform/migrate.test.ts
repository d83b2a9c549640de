import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { readMigrations, type MigrateResult } from '../../src/platform/database/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

const MIGRATE = fileURLToPath(new URL('../../src/platform/database/migrate.ts', import.meta.url));

/**
 * Runs the migrator on `url` in `count` processes of their own, started together: each loads the
 * migrator and says "ready", and only when all are ready are they told to go, so they really race.
 */
async function migrateInProcesses(url: string, count: number): Promise<MigrateResult[]> {
  const script =
    `import { migrate } from ${JSON.stringify(MIGRATE)};\n` +
    `process.stdout.write('ready\\n');\n` +
    `await new Promise((go) => process.stdin.once('data', go));\n` +
    `process.stdout.write(JSON.stringify(await migrate(${JSON.stringify(url)})) + '\\n');\n` +
    `process.exit(0);\n`;
  const children = Array.from({ length: count }, () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => out.startsWith('ready\n') && resolve());
      child.once('exit', (code) => reject(new Error(`exited ${code} before it was ready: ${err}`)));
    });
    const result = new Promise<MigrateResult>((resolve, reject) =>
      child.once('exit', (code) =>
        code === 0
          ? resolve(JSON.parse(out.slice('ready\n'.length)))
          : reject(new Error(`migrator exited ${code}: ${err}`)),
      ),
    );
    return { child, ready, result };
  });
  await Promise.all(children.map((c) => c.ready));
  for (const { child } of children) child.stdin.end('go\n');
  return Promise.all(children.map((c) => c.result));
}

describe('migrator', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it("records every migration in Prisma's _prisma_migrations table with its checksum", async () => {
    const files = await readMigrations();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query(
      'SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name',
    );
    await client.end();
    expect(rows).toEqual(files.map((f) => ({ migration_name: f.name, checksum: f.checksum })));
  });

  it('is idempotent: several processes migrating a migrated database at once apply nothing', async () => {
    const results = await migrateInProcesses(db.url, 3);
    for (const r of results) expect(r.applied).toEqual([]);
  });

  it('applies every migration exactly once when several processes start at once on an empty database', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const fresh = `${db.name}_fresh`;
    await client.query(`CREATE DATABASE "${fresh}"`);
    const freshUrl = db.url.replace(`/${db.name}`, `/${fresh}`);
    try {
      const results = await migrateInProcesses(freshUrl, 3);
      const names = (await readMigrations()).map((m) => m.name);
      // one process applied them all (the others waited for the lock and found nothing to do)
      expect(results.flatMap((r) => r.applied)).toEqual(names);
      expect(results.filter((r) => r.applied.length > 0)).toHaveLength(1);
      const recorded = new pg.Client({ connectionString: freshUrl });
      await recorded.connect();
      const { rows } = await recorded.query<{ migration_name: string }>(
        'SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name',
      );
      await recorded.end();
      expect(rows.map((r) => r.migration_name)).toEqual(names);
    } finally {
      await client.query(`DROP DATABASE IF EXISTS "${fresh}" WITH (FORCE)`);
      await client.end();
    }
  });
});
