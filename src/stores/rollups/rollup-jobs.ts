// The rollups' share of the job worker: every sweep (each worker process, every few seconds) looks
// at how old the rollups are and, once they are ROLLUP_REFRESH_MINUTES old or missing, queues one
// refresh under a job key (a second worker's sweep replaces the pending job rather than adding
// one). The refresh runs on the worker's own connections in one transaction under an advisory lock.
import type { JobHelpers } from 'graphile-worker';
import { enqueueJob } from '../../platform/jobs/job-queue.ts';
import type { JobFeature } from '../../platform/jobs/job-worker.ts';
import type { Logger } from '../../platform/logger.ts';
import { transactionOn } from '../../platform/database/transaction.ts';
import { buildStoreRollups, ROLLUP_REFRESH_MINUTES, rollupsFresherThan } from './store-rollups.ts';

export const REFRESH_ROLLUPS_TASK = 'refresh_store_rollups';
/** arbitrary constant: the advisory lock a refresh holds, so two workers never compute it at once */
const REFRESH_LOCK_KEY = 72_707_003;

export function rollupJobs({ logger }: { logger: Logger }): JobFeature {
  const log = logger.child({ component: 'rollups' });
  return {
    name: 'rollups',
    tasks: {
      [REFRESH_ROLLUPS_TASK]: async (_payload: unknown, helpers: JobHelpers) => {
        const build = await helpers.withPgClient((client) =>
          transactionOn(client, async () => {
            // a catalog-wide aggregate outlasts the request-sized timeouts of the pool
            await client.query(`SET LOCAL statement_timeout = '15min'`);
            const { rows } = await client.query<{ locked: boolean }>(
              'SELECT pg_try_advisory_xact_lock($1) AS locked',
              [REFRESH_LOCK_KEY],
            );
            // another worker is computing them, or did while this job waited: nothing is written
            if (!rows[0]!.locked || (await rollupsFresherThan(client, ROLLUP_REFRESH_MINUTES)))
              return null;
            return buildStoreRollups(client);
          }),
        );
        if (build) log.info(build, 'store rollups refreshed');
      },
    },
    sweep: async (pool) => {
      if (await rollupsFresherThan(pool, ROLLUP_REFRESH_MINUTES)) return;
      await enqueueJob(
        pool,
        REFRESH_ROLLUPS_TASK,
        {},
        { jobKey: REFRESH_ROLLUPS_TASK, maxAttempts: 3 },
      );
    },
  };
}
