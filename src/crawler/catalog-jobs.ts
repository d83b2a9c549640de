// The living catalog's share of the job worker (CATALOG_SCHEDULER): scheduled re-observations,
// discovery candidates' validation and the tick, on a job runner of their own with
// CATALOG_WORKER_CONCURRENCY jobs at once (on-demand scrapes, probes and webhooks run on the other
// runner and never wait behind this backlog), and the catalog's sweep.
import { randomUUID } from 'node:crypto';
import type { JobFeature } from '../platform/jobs/job-worker.ts';
import type { Services } from '../platform/services.ts';
import { storefrontUserAgent } from '../platform/egress/egress-from-config.ts';
import { loadReferenceData } from '../seed/reference-data.ts';
import { cachedAppFingerprints } from '../storefront/app-fingerprints.ts';
import { storefrontClient } from '../storefront/storefront-client.ts';
import type { CatalogDeps, CatalogSettings } from './catalog-deps.ts';
import { reportedSettings, sweepCatalog } from './catalog-sweep.ts';
import { tickTask } from './catalog-tick.ts';
import { discoverTask } from './discover-task.ts';
import { observeStoreTask } from './observe-store-task.ts';
import { DISCOVER_TASK, OBSERVE_TASK, TICK_TASK } from './work-queue.ts';

const APP_FINGERPRINTS_TTL_MS = 60_000;

export function catalogJobs(services: Services): JobFeature {
  const { config } = services;
  const clock = () => services.clock?.() ?? new Date();
  const pool = services.db.pool;
  const settings: CatalogSettings = {
    globalConcurrency: config.CATALOG_CONCURRENCY,
    workerConcurrency: config.CATALOG_WORKER_CONCURRENCY,
    discoverLinks: config.CATALOG_DISCOVER_LINKS,
    discoveryBudget: {
      maxDepth: config.CATALOG_DISCOVERY_MAX_DEPTH,
      daily: config.CATALOG_DISCOVERY_DAILY,
      perSourceStore: config.CATALOG_DISCOVERY_PER_SOURCE,
      perRegistrableDomain: config.CATALOG_DISCOVERY_PER_DOMAIN,
    },
  };
  const deps: CatalogDeps = {
    pool,
    legacy: services.legacy,
    logger: services.logger.child({ component: 'catalog' }),
    pubsub: services.pubsub,
    storefronts: storefrontClient(services),
    reference: loadReferenceData(),
    clock,
    apps: cachedAppFingerprints(pool, APP_FINGERPRINTS_TTL_MS),
    settings,
    workerId: randomUUID(),
  };
  const reported = reportedSettings(settings, {
    hostIntervalMs: config.EGRESS_HOST_INTERVAL_MS,
    userAgent: storefrontUserAgent(config),
  });
  const startedAt = clock();
  return {
    name: 'catalog',
    concurrency: settings.workerConcurrency,
    tasks: {
      [OBSERVE_TASK]: observeStoreTask(deps),
      [DISCOVER_TASK]: discoverTask(deps),
      [TICK_TASK]: tickTask({
        pool,
        clock,
        globalConcurrency: () => settings.globalConcurrency,
        discoveryBudget: settings.discoveryBudget,
      }),
    },
    // the sweep gets the worker's own pool: the heartbeat and releases never wait behind API requests
    sweep: (workerPool) =>
      sweepCatalog(workerPool, { workerId: deps.workerId, startedAt, settings, reported, clock }),
    // a process that stopped cleanly leaves the operations console's workers table at once (a killed one after a day)
    stop: async (workerPool) => {
      await workerPool.query('DELETE FROM crawler_workers WHERE id = $1', [deps.workerId]);
    },
  };
}
