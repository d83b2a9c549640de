import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { migrate, readMigrations } from '../../src/platform/database/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

describe('migrator', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('records every migration in Prisma\'s _prisma_migrations table with its checksum', async () => {
    const files = await readMigrations();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query('SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name');
    await client.end();
    expect(rows).toEqual(files.map((f) => ({ migration_name: f.name, checksum: f.checksum })));
  });

  it('is idempotent and safe when several processes migrate at once', async () => {
    const results = await Promise.all([migrate(db.url), migrate(db.url), migrate(db.url)]);
    for (const r of results) expect(r.applied).toEqual([]);
  });

  it('applies pending migrations once even when started concurrently on an empty database', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const fresh = `${db.name}_fresh`;
    await client.query(`CREATE DATABASE "${fresh}"`);
    const freshUrl = db.url.replace(`/${db.name}`, `/${fresh}`);
    try {
      const results = await Promise.all([migrate(freshUrl), migrate(freshUrl)]);
      const appliedTotal = results.flatMap((r) => r.applied);
      expect(appliedTotal).toEqual((await readMigrations()).map((m) => m.name));
    } finally {
      await client.query(`DROP DATABASE IF EXISTS "${fresh}" WITH (FORCE)`);
      await client.end();
    }
  });
});
