// `npm start`: configuration -> structured store (embedded PostgreSQL unless DATABASE_URL) ->
// legacy store -> seed an empty catalog -> pub/sub -> HTTP. Everything that opens registers its
// closer, so SIGINT/SIGTERM close the HTTP server first and stop the embedded PostgreSQL last,
// leaving DATA_DIR clean for a fast next start.
import { loadConfigOrExit, type Config } from '../src/platform/config.ts';
import { createLogger, type Logger } from '../src/platform/logger.ts';
import {
  openStructuredStore,
  type StructuredStore,
} from '../src/platform/database/structured-store.ts';
import { createPubSub } from '../src/platform/pubsub/pubsub.ts';
import { Shutdown } from '../src/platform/shutdown.ts';
import type { Services } from '../src/platform/services.ts';
import { openLegacyStore, type LegacyStore } from '../src/platform/legacy/index.ts';
import { startGatewayJobs } from './jobs.ts';
import { withWebhookSecret } from '../src/scrapes/webhooks/signing-secret.ts';
import { countCatalogStores, seedCatalog, SeedRefusedError } from '../src/seed/seed-catalog.ts';
import { logSeedProgress } from '../src/seed/seed-progress.ts';
import { withDemoStorefronts } from '../src/storefront/demo/demo-storefronts.ts';
import { warmUp } from './warm-up.ts';

/** host:port of a connection string, without credentials */
const hostOf = (url: string) => new URL(url).host;

function describeRoles(config: Config, structured: StructuredStore) {
  return {
    structuredStore: structured.description,
    legacyStore: config.MONGODB_URL
      ? `MongoDB ${hostOf(config.MONGODB_URL)}/${config.MONGODB_DB}`
      : 'PostgreSQL table legacy_store_summaries in the structured store (no MONGODB_URL)',
    pubsubAndCounters: config.REDIS_URL
      ? `Redis ${hostOf(config.REDIS_URL)}`
      : 'in-process (no REDIS_URL: a single instance only)',
  };
}

/** A first start on an empty catalog seeds SEED_STORES synthetic stores, so the API has data to serve. */
async function seedIfEmpty(
  config: Config,
  logger: Logger,
  structured: StructuredStore,
  legacy: LegacyStore,
): Promise<void> {
  if (config.SEED_STORES === 0) return;
  if ((await countCatalogStores(structured.database.pool)) > 0) return;
  logger.info(
    { stores: config.SEED_STORES },
    'empty catalog: seeding synthetic stores (SEED_STORES=0 skips this)',
  );
  try {
    await seedCatalog({
      pool: structured.database.pool,
      stores: config.SEED_STORES,
      legacy,
      legacyIsJsonbTable: !config.MONGODB_URL,
      logger,
      // tenths of the catalog per chunk, so the progress lines come at every tenth
      chunkSize: Math.max(1_000, Math.ceil(config.SEED_STORES / 10)),
      onProgress: logSeedProgress(logger.child({ component: 'seed' })),
    });
  } catch (error) {
    // another replica starting at the same moment seeded first; its catalog is the one we serve
    if (!(error instanceof SeedRefusedError)) throw error;
    logger.info('catalog was seeded by another process meanwhile');
  }
}

async function start(configured: Config, logger: Logger, shutdown: Shutdown): Promise<void> {
  // Importing the HTTP layer builds the GraphQL schema and REST routes: seconds of CPU that run
  // while the (embedded) PostgreSQL starts in its own processes, instead of after it.
  const httpLayer = import('./server.ts');
  httpLayer.catch(() => undefined); // awaited below; a failure surfaces there

  const structured = await openStructuredStore(configured, logger, { readReplicas: true });
  shutdown.add('structured store', () => structured.close());
  if (shutdown.requested) return;
  const demo = await withDemoStorefronts(
    await withWebhookSecret(configured, structured.database.pool),
    structured.database.pool,
    logger,
  );
  shutdown.add('demo storefronts', () => demo.close());
  const { config } = demo;

  const legacy = await openLegacyStore({ config, pool: structured.database.pool, logger });
  shutdown.add('legacy store', () => legacy.close());
  if (shutdown.requested) return;

  await seedIfEmpty(config, logger, structured, legacy);
  if (shutdown.requested) return;

  const pubsub = createPubSub({ redisUrl: config.REDIS_URL, logger });
  shutdown.add('pub/sub', () => pubsub.close());
  if (shutdown.requested) return;

  const services: Services = { config, logger, db: structured.database, legacy, pubsub };
  const worker = await startGatewayJobs(services);
  if (worker) shutdown.add('job worker', () => worker.stop());
  if (shutdown.requested) return;

  const { buildServer, closeServer, accessOf } = await httpLayer;
  const app = await buildServer(services);
  const access = accessOf(app);
  await warmUp(services, logger, access && { app, access });
  if (shutdown.requested) return;
  shutdown.add('http server', () => closeServer(app, config.SHUTDOWN_GRACE_MS));
  if (shutdown.requested) return;

  await app.listen({ host: config.HOST, port: config.PORT });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url =
    config.PUBLIC_BASE_URL ??
    `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}`;
  const roles = describeRoles(config, structured);
  logger.info(
    { url, ...roles },
    `store-intelligence listening on ${url} | structured store: ${roles.structuredStore} | legacy store: ${roles.legacyStore} | pub/sub and counters: ${roles.pubsubAndCounters}`,
  );
}

const config = loadConfigOrExit();
const logger = createLogger(config.LOG_LEVEL, undefined, config.LOG_FORMAT);
const shutdown = new Shutdown(logger);
shutdown.exitOnSignals(['SIGINT', 'SIGTERM']);
process.on('uncaughtException', (error) => {
  logger.fatal({ err: error }, 'uncaught exception');
  shutdown.exitAfter('uncaught exception', 1);
});
process.on('unhandledRejection', (reason) => {
  logger.fatal({ err: reason }, 'unhandled promise rejection');
  shutdown.exitAfter('unhandled promise rejection', 1);
});

shutdown.trackStartup(start(config, logger, shutdown)).catch((error: unknown) => {
  logger.fatal({ err: error }, 'start failed');
  shutdown.exitAfter('start failed', 1);
});
