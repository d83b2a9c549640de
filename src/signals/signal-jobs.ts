// The Signals feature's share of the job worker: the probe task and the scheduled-probe tick, with
// one egress client per worker process (per-host politeness holds across its probes) and the
// storefront observer that refreshes a watched store's apps and products after each probe.
import { createEgress } from '../platform/egress/egress.ts';
import type { JobFeature } from '../platform/jobs/job-worker.ts';
import type { Services } from '../platform/services.ts';
import { SCRAPER_USER_AGENT } from '../scrapes/scrape-jobs.ts';
import { createStorefrontObserver } from './changes/observe-storefront.ts';
import { PROBE_TASK, PROBE_TICK_TASK, probeIntervalMs } from './probes/probe-schedule.ts';
import { probeTask } from './probes/probe-task.ts';
import { probeTickTask } from './probes/probe-tick.ts';

export function signalJobs(services: Services): JobFeature {
  const { config, logger } = services;
  const clock = () => services.clock?.() ?? new Date();
  const egress = createEgress({
    overrides: config.EGRESS_OVERRIDES,
    timeoutMs: config.EGRESS_TIMEOUT_MS,
    maxBytes: config.EGRESS_MAX_BYTES,
    hostIntervalMs: config.EGRESS_HOST_INTERVAL_MS,
    extraCaFile: config.NODE_EXTRA_CA_CERTS,
    userAgent: SCRAPER_USER_AGENT,
  });
  const log = logger.child({ component: 'signals' });
  const pool = services.db.pool;
  return {
    name: 'signals',
    tasks: {
      [PROBE_TASK]: probeTask({ pool, egress, clock, logger: log, observe: createStorefrontObserver({ pool, egress, clock, logger: log }) }),
      [PROBE_TICK_TASK]: probeTickTask({ pool, clock, intervalMs: probeIntervalMs(config.SIGNAL_PROBE_INTERVAL_MINUTES) }),
    },
  };
}
