// Picks the legacy store's backend from the configuration: MongoDB when MONGODB_URL is set,
// otherwise the JSONB table in the structured PostgreSQL. Callers only ever see LegacyStore.
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { createPostgresLegacyStore, type Queryable } from './postgres-jsonb-adapter.ts';
import type { LegacyStore } from './port.ts';

export interface OpenLegacyStoreOptions {
  config: Pick<
    Config,
    'MONGODB_URL' | 'MONGODB_DB' | 'MONGODB_CONNECT_TIMEOUT_MS' | 'MONGODB_HEARTBEAT_MS'
  >;
  /** the structured store's pool, used when no MongoDB is configured */
  pool: Queryable;
  logger: Logger;
}

export async function openLegacyStore({
  config,
  pool,
  logger,
}: OpenLegacyStoreOptions): Promise<LegacyStore> {
  if (config.MONGODB_URL) {
    // the driver is loaded only where a MongoDB is configured (the embedded default has none)
    const { connectMongoLegacyStore } = await import('./mongo-adapter.ts');
    return connectMongoLegacyStore({
      url: config.MONGODB_URL,
      dbName: config.MONGODB_DB,
      logger,
      connectTimeoutMs: config.MONGODB_CONNECT_TIMEOUT_MS,
      heartbeatMs: config.MONGODB_HEARTBEAT_MS,
    });
  }
  logger.info(
    { backend: 'postgres-jsonb' },
    'legacy store ready (no MONGODB_URL: JSONB table in PostgreSQL)',
  );
  return createPostgresLegacyStore({ pool });
}

export type { LegacyStore, LegacySummary, LegacySocials, LegacyHealth } from './port.ts';
