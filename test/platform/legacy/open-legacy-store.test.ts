// The backend is chosen by configuration alone: MongoDB when MONGODB_URL is set, else the JSONB table.
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLegacyStore } from '../../../src/platform/legacy/index.ts';
import { createLogger } from '../../../src/platform/logger.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import {
  startMongoWireServer,
  type MongoWireServer,
} from '../../support/mongo-wire-server/index.ts';
import { mongoUnderTestKind } from './adapters-under-test.ts';

const logger = createLogger('silent');

describe('openLegacyStore', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let testServer: MongoWireServer | undefined;
  let mongoUrl: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 1 });
    testServer = process.env.MONGODB_URL ? undefined : await startMongoWireServer();
    mongoUrl = process.env.MONGODB_URL ?? testServer!.url;
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
    await testServer?.close();
  });

  it('uses the JSONB table in PostgreSQL when no MONGODB_URL is configured', async () => {
    const store = await openLegacyStore({
      config: {
        MONGODB_URL: undefined,
        MONGODB_DB: 'unused',
        MONGODB_CONNECT_TIMEOUT_MS: 5_000,
        MONGODB_HEARTBEAT_MS: 2_000,
      },
      pool,
      logger,
    });
    expect(store.source).toBe('postgres:legacy_store_summaries');
    expect(await store.health()).toMatchObject({ ok: true, backend: 'postgres-jsonb' });
    await store.close();
  });

  it(`uses MongoDB when MONGODB_URL is set, and opens again over existing indexes (${mongoUnderTestKind})`, async () => {
    const config = {
      MONGODB_URL: mongoUrl,
      MONGODB_DB: `legacy_open_${randomBytes(5).toString('hex')}`,
      MONGODB_CONNECT_TIMEOUT_MS: 5_000,
      MONGODB_HEARTBEAT_MS: 2_000,
    };
    const first = await openLegacyStore({ config, pool, logger });
    const second = await openLegacyStore({ config, pool, logger });
    try {
      expect(second.source).toBe('mongo:store_summaries');
      expect(await second.health()).toMatchObject({ ok: true, backend: 'mongo' });
    } finally {
      await first.close();
      await second.close();
      const cleanup = await MongoClient.connect(mongoUrl);
      await cleanup.db(config.MONGODB_DB).dropDatabase();
      await cleanup.close();
    }
  });
});
