// The Signals feature's share of the job worker: the probe task and the scheduled-probe tick, with
// the process's storefront client (per-host pacing shared with scrapes) and the
// refresh that updates a watched store's apps and products after each probe.
import { storefrontClient } from '../storefront/storefront-client.ts';
import type { JobFeature } from '../platform/jobs/job-worker.ts';
import type { Services } from '../platform/services.ts';
import { createWatchedStoreRefresh } from './changes/watched-store-refresh.ts';
import { PROBE_TASK, PROBE_TICK_TASK, probeIntervalMs } from './probes/probe-schedule.ts';
import { probeTask } from './probes/probe-task.ts';
import { probeTickTask } from './probes/probe-tick.ts';

export function signalJobs(services: Services): JobFeature {
  const { config, logger } = services;
  const clock = () => services.clock?.() ?? new Date();
  const storefronts = storefrontClient(services);
  const log = logger.child({ component: 'signals' });
  const pool = services.db.pool;
  return {
    name: 'signals',
    tasks: {
      [PROBE_TASK]: probeTask({ pool, storefronts, clock, logger: log, observe: createWatchedStoreRefresh({ pool, storefronts, clock, logger: log }) }),
      [PROBE_TICK_TASK]: probeTickTask({ pool, clock, intervalMs: probeIntervalMs(config.SIGNAL_PROBE_INTERVAL_MINUTES) }),
    },
  };
}
