// The alerts feature's share of the job worker: the alert.matched batch task.
import type { JobFeature } from '../platform/jobs/job-worker.ts';
import type { Services } from '../platform/services.ts';
import { ALERT_BATCH_TASK } from './alert-matching.ts';
import { alertBatchTask } from './alert-webhooks.ts';

export function alertJobs(services: Services): JobFeature {
  return {
    name: 'alerts',
    tasks: {
      [ALERT_BATCH_TASK]: alertBatchTask({
        pool: services.db.pool,
        clock: () => services.clock?.() ?? new Date(),
        intervalMs: services.config.ALERT_WEBHOOK_INTERVAL_MS,
        webhookMaxAttempts: services.config.WEBHOOK_MAX_ATTEMPTS,
      }),
    },
  };
}
