// The DATABASE_URL path of the structured store (the embedded path is covered end to end by
// main.e2e.test.ts): the schema is migrated at open, and the start-up description has no secrets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openStructuredStore } from '../../src/platform/database/structured-store.ts';
import { readMigrations } from '../../src/platform/database/migrate.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

const logger = createLogger('silent');

describe('structured store on DATABASE_URL', () => {
  let testDb: TestDatabase;
  let emptyUrl: string;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    // an empty database beside the migrated one, as a new deployment would have
    const admin = new pg.Client({ connectionString: testDb.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${testDb.name}_empty"`);
    await admin.end();
    const url = new URL(testDb.url);
    url.pathname = `/${testDb.name}_empty`;
    emptyUrl = url.toString();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: testDb.url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${testDb.name}_empty" WITH (FORCE)`);
    await admin.end();
    await testDb.drop();
  });

  it('migrates an empty database before the first query', async () => {
    const store = await openStructuredStore(
      {
        DATABASE_URL: emptyUrl,
        DATA_DIR: '/nonexistent',
        EMBEDDED_PG_PORT: 1,
        QUERY_TIMEOUT_MS: 5_000,
      },
      logger,
    );
    try {
      expect(store.embedded).toBeUndefined();
      expect(store.database.backend).toBe('postgres');
      const { rows } = await store.database.pool.query<{ migration_name: string }>(
        'SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name',
      );
      expect(rows.map((r) => r.migration_name)).toEqual(
        (await readMigrations()).map((m) => m.name),
      );
      expect(await store.database.prisma.store.count()).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('describes the server for the start-up log without credentials', async () => {
    const withPassword = new URL(testDb.url);
    const store = await openStructuredStore(
      {
        DATABASE_URL: testDb.url,
        DATA_DIR: '/nonexistent',
        EMBEDDED_PG_PORT: 1,
        QUERY_TIMEOUT_MS: 5_000,
      },
      logger,
    );
    await store.close();
    expect(store.description).toBe(
      `PostgreSQL ${withPassword.hostname}:${withPassword.port || '5432'}/${testDb.name}`,
    );
  });
});
