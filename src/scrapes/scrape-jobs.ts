// The scrapes feature's share of the job worker: the scrape task, the webhook delivery task and the
// sweep, built from the services (one storefront client per worker process, so per-host politeness
// holds across the jobs it runs).
import { storefrontClient } from '../storefront/storefront-client.ts';
import { egressFromConfig, storefrontUserAgent } from '../platform/egress/egress-from-config.ts';
import type { JobFeature } from '../platform/jobs/job-worker.ts';
import type { Services } from '../platform/services.ts';
import { loadReferenceData } from '../seed/reference-data.ts';
import { sweepScrapes } from './scrape-sweep.ts';
import { SCRAPE_TASK, scrapeTask } from './scrape-task.ts';
import { screenshotUrl } from './screenshot/screenshot-store.ts';
import { createScreenshotter } from './screenshot/take-screenshot.ts';
import { deliverWebhookTask } from './webhooks/deliver-webhook.ts';
import { DELIVER_WEBHOOK_TASK } from '../platform/jobs/webhook-task.ts';

export function scrapeJobs(services: Services): JobFeature {
  const { config, logger, pubsub } = services;
  const clock = () => services.clock?.() ?? new Date();
  const storefronts = storefrontClient(services);
  const { egress } = storefronts;
  const log = logger.child({ component: 'scrapes' });
  const webhookMaxAttempts = config.WEBHOOK_MAX_ATTEMPTS;
  return {
    name: 'scrapes',
    tasks: {
      [SCRAPE_TASK]: scrapeTask({
        pool: services.db.pool,
        legacy: services.legacy,
        pubsub,
        logger: log,
        storefronts,
        reference: loadReferenceData(),
        clock,
        webhookMaxAttempts,
        screenshots: createScreenshotter({
          chromiumPath: config.CHROMIUM_PATH,
          egress,
          timeoutMs: config.EGRESS_TIMEOUT_MS,
        }),
        screenshotUrl: (domain) => screenshotUrl(config, domain),
        discoverLinks: config.CATALOG_DISCOVER_LINKS,
      }),
      [DELIVER_WEBHOOK_TASK]: deliverWebhookTask({
        pool: services.db.pool,
        // in development a callback may be the local listener on loopback (npm run webhooks:listen)
        egress:
          config.NODE_ENV !== 'development'
            ? egress
            : egressFromConfig(config, storefrontUserAgent(config), { loopbackAllowed: true }),
        signingSecret: config.WEBHOOK_SIGNING_SECRET,
        logger: log,
        clock,
      }),
    },
    sweep: (pool) => sweepScrapes(pool, { pubsub, logger: log, clock, webhookMaxAttempts }),
  };
}
