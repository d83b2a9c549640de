// The rollups the job worker refreshes every ROLLUP_REFRESH_MINUTES (a catalog-wide aggregate, most of
// a minute of PostgreSQL at 1M stores), refreshed once by the bench before its timed runs. The servers
// it times only serve requests, the service as an API process (WORKER_IN_PROCESS=false) like
// PostGraphile and the floor: a refresh would otherwise land on whichever run it overlapped.
import pg from 'pg';
import { inTransaction } from '../src/platform/database/transaction.ts';
import { buildStoreRollups } from '../src/stores/rollups/store-rollups.ts';

/** Runs the refresh the job runs, in one transaction; its duration in ms. */
export async function refreshRollups(url: string): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: 1, application_name: 'bench-rollups' });
  try {
    const build = await inTransaction(pool, async (client) => {
      await client.query('SET LOCAL statement_timeout = 0');
      return buildStoreRollups(client);
    });
    // its writes reach disk now, not in a checkpoint during the timed runs (needs a superuser or
    // pg_checkpoint; without one the next checkpoint comes when it comes)
    await pool.query('CHECKPOINT').catch(() => undefined);
    return build.durationMs;
  } finally {
    await pool.end();
  }
}
