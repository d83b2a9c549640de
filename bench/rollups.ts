// The rollups the job worker refreshes every ROLLUP_REFRESH_MINUTES (a catalog-wide aggregate, most of
// a minute of PostgreSQL at 1M stores), refreshed once by the bench before its timed runs. The servers
// it times only serve requests, the service as an API process (WORKER_IN_PROCESS=false) like
// PostGraphile and the floor: a refresh would otherwise land on whichever run it overlapped.
import pg from 'pg';
import { buildStoreRollups } from '../src/stores/rollups/store-rollups.ts';

/** Runs the refresh the job runs, in one transaction; its duration in ms. */
export async function refreshRollups(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-rollups' });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL statement_timeout = 0');
    const build = await buildStoreRollups(client);
    await client.query('COMMIT');
    // its writes reach disk now, not in a checkpoint during the timed runs (needs a superuser or
    // pg_checkpoint; without one the next checkpoint comes when it comes)
    await client.query('CHECKPOINT').catch(() => undefined);
    return build.durationMs;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
