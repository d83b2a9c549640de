// The two legacy-store adapters, each opened on its own throwaway storage, with a counter of the
// round trips it makes: statements through the pg pool, commands through the Mongo driver
// (command monitoring, so the count is the same against a real server and the test server).
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import pg from 'pg';
import { vi } from 'vitest';
import { createMongoLegacyStore } from '../../../src/platform/legacy/mongo-adapter.ts';
import type { LegacyStore, LegacySummary } from '../../../src/platform/legacy/port.ts';
import { createPostgresLegacyStore } from '../../../src/platform/legacy/postgres-jsonb-adapter.ts';
import { createTestDatabase } from '../../support/database.ts';
import { startMongoWireServer } from '../../support/mongo-wire-server/index.ts';

export interface AdapterUnderTest {
  store: LegacyStore;
  /** round trips to the backend since the adapter was opened */
  roundTrips(): number;
  close(): Promise<void>;
}

export async function openPostgresUnderTest(): Promise<AdapterUnderTest> {
  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  const query = vi.spyOn(pool, 'query');
  return {
    store: createPostgresLegacyStore({ pool }),
    roundTrips: () => query.mock.calls.length,
    async close() {
      await pool.end();
      await database.drop();
    },
  };
}

/** A real MongoDB when MONGODB_URL is set, otherwise the OP_MSG test server. */
export const mongoUnderTestKind = process.env.MONGODB_URL
  ? 'MongoDB at MONGODB_URL'
  : 'OP_MSG test server';

export interface MongoUnderTest extends AdapterUnderTest {
  client: MongoClient;
  dbName: string;
  url: string;
}

export async function openMongoUnderTest(): Promise<MongoUnderTest> {
  const testServer = process.env.MONGODB_URL ? undefined : await startMongoWireServer();
  const url = process.env.MONGODB_URL ?? testServer!.url;
  const dbName = `legacy_test_${randomBytes(5).toString('hex')}`;
  const client = new MongoClient(url, { monitorCommands: true, serverSelectionTimeoutMS: 5_000 });
  let commands = 0;
  client.on('commandStarted', () => (commands += 1));
  await client.connect();
  const store = await createMongoLegacyStore({ client, dbName });
  return {
    store,
    client,
    dbName,
    url,
    roundTrips: () => commands,
    async close() {
      await client.db(dbName).dropDatabase();
      await store.close();
      await testServer?.close();
    },
  };
}

/** A well-formed summary with fresh keys, so tests sharing a store never see each other's rows. */
export function summaryFixture(overrides: Partial<LegacySummary> = {}): LegacySummary {
  return {
    domain: `${randomBytes(4).toString('hex')}.example-store.com`,
    legacyId: randomBytes(12).toString('hex'),
    socials: {},
    emails: [],
    ...overrides,
  };
}
