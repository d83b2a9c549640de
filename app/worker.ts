// `npm run worker`: a job worker as its own process (scrapes, webhook deliveries), for scaling jobs
// apart from the gateway. It needs the shared PostgreSQL (DATABASE_URL; the embedded default
// belongs to the gateway process) and, for live status on every replica, the shared Redis (REDIS_URL).
import { startWorker } from './jobs.ts';
import { withWebhookSecret } from '../src/scrapes/webhooks/signing-secret.ts';
import { withDemoStorefronts } from '../src/storefront/demo/demo-storefronts.ts';
import { openLegacyStore } from '../src/platform/legacy/index.ts';
import { loadConfigOrExit } from '../src/platform/config.ts';
import { openStructuredStore } from '../src/platform/database/structured-store.ts';
import { createLogger } from '../src/platform/logger.ts';
import { createPubSub } from '../src/platform/pubsub/pubsub.ts';
import type { Services } from '../src/platform/services.ts';
import { Shutdown } from '../src/platform/shutdown.ts';

const configured = loadConfigOrExit();
if (!configured.DATABASE_URL) {
  process.stderr.write(
    'npm run worker needs DATABASE_URL: the embedded PostgreSQL runs inside the gateway, whose in-process worker serves it.\n',
  );
  process.exit(1);
}

const logger = createLogger(configured.LOG_LEVEL, undefined, configured.LOG_FORMAT).child({
  process: 'worker',
});
const shutdown = new Shutdown(logger);
shutdown.exitOnSignals(['SIGINT', 'SIGTERM']);

async function start(): Promise<void> {
  const structured = await openStructuredStore(configured, logger);
  shutdown.add('structured store', () => structured.close());
  const demo = await withDemoStorefronts(
    await withWebhookSecret(configured, structured.database.pool),
    structured.database.pool,
    logger,
  );
  shutdown.add('demo storefronts', () => demo.close());
  const { config } = demo;
  const legacy = await openLegacyStore({ config, pool: structured.database.pool, logger });
  shutdown.add('legacy store', () => legacy.close());
  const pubsub = createPubSub({ redisUrl: config.REDIS_URL, logger });
  shutdown.add('pub/sub', () => pubsub.close());
  const services: Services = { config, logger, db: structured.database, legacy, pubsub };
  const worker = await startWorker(services);
  shutdown.add('job worker', () => worker.stop());
}

shutdown.trackStartup(start()).catch((error: unknown) => {
  logger.fatal({ err: error }, 'worker start failed');
  shutdown.exitAfter('start failed', 1);
});
