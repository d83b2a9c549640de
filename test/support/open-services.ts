// Services as main.ts builds them (JSONB legacy store, in-process pub/sub) on an existing test
// database, with configuration from the given environment and a logger whose lines the test reads.
import { Writable } from 'node:stream';
import { openLegacyStore } from '../../src/platform/legacy/index.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { openDatabase } from '../../src/platform/database/database.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createPubSub } from '../../src/platform/pubsub/pubsub.ts';
import type { Services } from '../../src/platform/services.ts';

export interface OpenedServices {
  services: Services;
  /** every log line written so far, raw JSON text */
  logLines: string[];
  /** closes pub/sub, legacy store and database; the database itself stays */
  close(): Promise<void>;
}

export async function openServicesOn(
  databaseUrl: string,
  env: Record<string, string | undefined> = {},
  options: { queryTimeoutMs?: number; poolSize?: number } = {},
): Promise<OpenedServices> {
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger('debug', sink);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    SEED_STORES: '0',
    ...env,
  });
  const db = await openDatabase({
    url: databaseUrl,
    logger,
    queryTimeoutMs: options.queryTimeoutMs ?? config.QUERY_TIMEOUT_MS,
    poolSize: options.poolSize,
  });
  const legacy = await openLegacyStore({ config, pool: db.pool, logger });
  const pubsub = createPubSub({ logger });
  return {
    services: { config, logger, db, legacy, pubsub },
    logLines,
    async close() {
      await pubsub.close();
      await legacy.close();
      await db.close();
    },
  };
}
