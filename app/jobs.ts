// The job worker's composition: which features bring tasks to it (the catalog's scheduler unless
// CATALOG_SCHEDULER is false). The gateway runs one in-process
// (WORKER_IN_PROCESS, the default); `npm run worker` (app/worker.ts) runs more as their own
// processes on the same queue. Either way the queue's schema is migrated before anything is queued.
import { monthPartitionUpkeep } from '../src/platform/database/month-partitions.ts';
import { migrateJobQueue } from '../src/platform/jobs/job-queue.ts';
import { startJobWorker, type JobWorker } from '../src/platform/jobs/job-worker.ts';
import type { Services } from '../src/platform/services.ts';
import { catalogJobs } from '../src/crawler/catalog-jobs.ts';
import { scrapeJobs } from '../src/scrapes/scrape-jobs.ts';
import { rollupJobs } from '../src/stores/rollups/rollup-jobs.ts';
import { signalJobs } from '../src/signals/signal-jobs.ts';
import { alertJobs } from '../src/alerts/alert-jobs.ts';

export const jobFeatures = (services: Services) => [
  scrapeJobs(services),
  signalJobs(services),
  alertJobs(services),
  rollupJobs(services),
  {
    name: 'month-partitions',
    tasks: {},
    sweep: monthPartitionUpkeep({
      retention: {
        history: services.config.HISTORY_RETENTION_MONTHS,
        signals: services.config.SIGNALS_RETENTION_MONTHS,
      },
      clock: services.clock ?? (() => new Date()),
      logger: services.logger,
    }),
  },
  ...(services.config.CATALOG_SCHEDULER ? [catalogJobs(services)] : []),
];

export function startWorker(services: Services): Promise<JobWorker> {
  return startJobWorker({
    databaseUrl: services.db.url,
    logger: services.logger,
    concurrency: services.config.WORKER_CONCURRENCY,
    features: jobFeatures(services),
  });
}

/** Gateway start: the queue exists (requests enqueue into it); the in-process worker runs unless disabled. */
export async function startGatewayJobs(services: Services): Promise<JobWorker | undefined> {
  await migrateJobQueue(services.db.pool);
  return services.config.WORKER_IN_PROCESS ? startWorker(services) : undefined;
}
