// The alerts feature's share of the job worker: the alert.matched batch task, and the sweep that
// deletes settled alert deliveries after a week.
import type { JobFeature } from '../platform/jobs/job-worker.ts';
import type { Services } from '../platform/services.ts';
import { ALERT_BATCH_TASK } from './alert-matching.ts';
import { alertBatchTask, sweepAlertDeliveries } from './alert-webhooks.ts';

export function alertJobs(services: Services): JobFeature {
  const clock = () => services.clock?.() ?? new Date();
  return {
    name: 'alerts',
    sweep: (pool) => sweepAlertDeliveries(pool),
    tasks: {
      [ALERT_BATCH_TASK]: alertBatchTask({
        pool: services.db.pool,
        clock,
        intervalMs: services.config.ALERT_WEBHOOK_INTERVAL_MS,
        webhookMaxAttempts: services.config.WEBHOOK_MAX_ATTEMPTS,
      }),
    },
  };
}
