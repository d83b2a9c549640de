// Services for catalog tests: a fresh migrated database (createTestDatabase), the legacy store's
// JSONB adapter (the embedded default) and in-process pub/sub. With { countStatements: true } the
// structured store runs on one pg.Pool that Prisma shares (through @prisma/adapter-pg), and every
// statement sent to it is counted, as is every legacy-store round trip, so tests can prove that
// resolvers batch their reads.
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../../src/generated/prisma/client.ts';
import { createPostgresLegacyStore } from '../../src/platform/legacy/postgres-jsonb-adapter.ts';
import type { LegacyStore } from '../../src/platform/legacy/port.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { openDatabase, type Database } from '../../src/platform/database/database.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createPubSub } from '../../src/platform/pubsub/pubsub.ts';
import type { Services } from '../../src/platform/services.ts';
import { createTestDatabase } from './database.ts';

export interface RoundTripCounter {
  /** SQL statements sent to the structured store (raw pool and Prisma alike) */
  statements: number;
  /** findByDomains / findByLegacyIds calls on the legacy store */
  legacyRoundTrips: number;
  /** the SQL text of each counted statement, in order (for failure messages) */
  readonly log: string[];
  /** each counted statement with its parameters, in order (to EXPLAIN what a request ran) */
  readonly sent: Array<{ text: string; values: unknown[]; name?: string }>;
  reset(): void;
}

export interface TestServicesOptions {
  countStatements?: boolean;
  queryTimeoutMs?: number;
}

export interface CatalogTestServices {
  services: Services;
  /** present with { countStatements: true } */
  counter?: RoundTripCounter;
  close(): Promise<void>;
}

function createCounter(): RoundTripCounter {
  const counter: RoundTripCounter = {
    statements: 0,
    legacyRoundTrips: 0,
    log: [],
    sent: [],
    reset() {
      counter.statements = 0;
      counter.legacyRoundTrips = 0;
      counter.log.length = 0;
      counter.sent.length = 0;
    },
  };
  return counter;
}

/** A Database whose pool counts statements and whose Prisma client runs on that same pool. */
function countingDatabase(
  url: string,
  queryTimeoutMs: number,
  counter: RoundTripCounter,
): { db: Database; uncounted: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: 10, statement_timeout: queryTimeoutMs });
  const uncounted = new pg.Pool({
    connectionString: url,
    max: 4,
    statement_timeout: queryTimeoutMs,
  });
  // an idle connection ended under the pool (the test database dropped while a client lingers)
  // would otherwise be an uncaught exception that fails the whole run; the service's own pools
  // handle it the same way (src/platform/database/database.ts)
  for (const p of [pool, uncounted]) p.on('error', () => undefined);
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    counter.statements += 1;
    const first = args[0];
    const text = typeof first === 'string' ? first : String((first as { text?: string }).text);
    const values =
      (typeof first === 'string' ? args[1] : (first as { values?: unknown[] }).values) ?? [];
    counter.log.push(text);
    const name = typeof first === 'string' ? undefined : (first as { name?: string }).name;
    counter.sent.push({ text, values: Array.isArray(values) ? values : [], name });
    return query(...args);
  }) as typeof pool.query;
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const db: Database = {
    url,
    backend: 'postgres',
    prisma,
    pool,
    read: pool,
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
      await uncounted.end();
    },
  };
  return { db, uncounted };
}

function countingLegacy(legacy: LegacyStore, counter: RoundTripCounter): LegacyStore {
  return {
    ...legacy,
    source: legacy.source,
    findByDomains: (domains) => {
      counter.legacyRoundTrips += 1;
      return legacy.findByDomains(domains);
    },
    findByLegacyIds: (ids) => {
      counter.legacyRoundTrips += 1;
      return legacy.findByLegacyIds(ids);
    },
  };
}

export async function createTestServices(
  options: TestServicesOptions = {},
): Promise<CatalogTestServices> {
  const testDb = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: testDb.url,
    SEED_STORES: '0',
    LOG_LEVEL: 'silent',
  });
  const logger = createLogger('silent');
  const queryTimeoutMs = options.queryTimeoutMs ?? config.QUERY_TIMEOUT_MS;
  const pubsub = createPubSub({ logger });

  let db: Database;
  let legacy: LegacyStore;
  let counter: RoundTripCounter | undefined;
  if (options.countStatements) {
    counter = createCounter();
    const counting = countingDatabase(testDb.url, queryTimeoutMs, counter);
    db = counting.db;
    // the legacy store's own statements are counted as legacy round trips, not as SQL statements
    legacy = countingLegacy(createPostgresLegacyStore({ pool: counting.uncounted }), counter);
  } else {
    db = await openDatabase({ url: testDb.url, logger, queryTimeoutMs });
    legacy = createPostgresLegacyStore({ pool: db.pool });
  }

  return {
    services: { config, logger, db, legacy, pubsub },
    counter,
    async close() {
      await pubsub.close();
      await legacy.close();
      await db.close();
      await testDb.drop();
    },
  };
}
