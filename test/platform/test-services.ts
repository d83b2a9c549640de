// Services as main.ts builds them, on a fresh migrated test database: embedded-default legacy
// store (JSONB table), in-process pub/sub, and a logger whose lines the test can read.
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/platform/config.ts';
import { openDatabase } from '../../src/platform/database/database.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createPubSub } from '../../src/platform/pubsub/pubsub.ts';
import type { Services } from '../../src/platform/services.ts';
import { openLegacyStore } from '../../src/legacy/index.ts';
import { createTestDatabase } from '../support/database.ts';

export interface TestServices extends Services {
  /** every log line written so far, raw JSON text */
  logLines: string[];
  close(): Promise<void>;
}

export async function openTestServices(options: { queryTimeoutMs?: number } = {}): Promise<TestServices> {
  const testDb = await createTestDatabase();
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger('debug', sink);
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: testDb.url, SEED_STORES: '0' });
  const db = await openDatabase({ url: testDb.url, logger, queryTimeoutMs: options.queryTimeoutMs ?? config.QUERY_TIMEOUT_MS });
  const legacy = await openLegacyStore({ config, pool: db.pool, logger });
  const pubsub = createPubSub({ logger });
  return {
    config,
    logger,
    db,
    legacy,
    pubsub,
    logLines,
    async close() {
      await pubsub.close();
      await legacy.close();
      await db.close();
      await testDb.drop();
    },
  };
}
