// The Signals feature's share of the job worker: the probe task and the scheduled-probe tick, with
// the process's storefront client (per-host pacing shared with scrapes) and the
// refresh that observes a watched store after each probe (written as any observation is).
import { storefrontClient } from '../storefront/storefront-client.ts';
import type { JobFeature } from '../platform/jobs/job-worker.ts';
import type { Services } from '../platform/services.ts';
import { loadReferenceData } from '../seed/reference-data.ts';
import { createWatchedStoreRefresh } from './watched-changes/watched-store-refresh.ts';
import { PROBE_TASK, PROBE_TICK_TASK, probeIntervalMs } from './probes/probe-schedule.ts';
import { probeTask } from './probes/probe-task.ts';
import { probeTickTask } from './probes/probe-tick.ts';

export function signalJobs(services: Services): JobFeature {
  const { config, logger } = services;
  const clock = () => services.clock?.() ?? new Date();
  const storefronts = storefrontClient(services);
  const log = logger.child({ component: 'signals' });
  const pool = services.db.pool;
  const observe = createWatchedStoreRefresh({
    pool,
    legacy: services.legacy,
    pubsub: services.pubsub,
    storefronts,
    reference: loadReferenceData(),
    clock,
    logger: log,
    discoverLinks: config.CATALOG_DISCOVER_LINKS,
  });
  return {
    name: 'signals',
    tasks: {
      [PROBE_TASK]: probeTask({ pool, storefronts, clock, logger: log, observe }),
      [PROBE_TICK_TASK]: probeTickTask({
        pool,
        clock,
        intervalMs: probeIntervalMs(config.SIGNAL_PROBE_INTERVAL_MINUTES),
      }),
    },
  };
}
