// A job worker's connections stay few whatever its concurrency: graphile-worker fetches and
// completes jobs a statement at a time and tasks use the service's own pool, so a burst of jobs
// as wide as the concurrency must not open a connection per job. (The crawl bench found a worker
// with 64 observations at once opening one connection per job when 10,000 stores came due
// together, past the shared PostgreSQL's max_connections: the queue's next statement failed and
// the process died.)
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueueJob, migrateJobQueue } from '../../src/platform/jobs/job-queue.ts';
import { startJobWorker, type JobWorker } from '../../src/platform/jobs/job-worker.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { pollUntil } from '../support/poll.ts';

/** what the worker may hold: LISTEN per runner, the liveness session, the queue's statements (and this test's pool) */
const LIMIT = 16;
let db: TestDatabase;
let pool: pg.Pool;
let worker: JobWorker | undefined;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => undefined);
});
afterAll(async () => {
  await worker?.stop();
  await pool?.end();
  await db?.drop();
});

it('runs a burst of 128 jobs at concurrency 64 on a handful of connections', async () => {
  await migrateJobQueue(pool);
  for (let i = 0; i < 128; i++) await enqueueJob(pool, 'burst', { i });
  let done = 0;
  worker = await startJobWorker({
    databaseUrl: db.url,
    logger: createLogger('silent'),
    concurrency: 1,
    features: [
      {
        name: 'burst',
        concurrency: 64,
        tasks: {
          burst: async () => {
            await sleep(200);
            done++;
          },
        },
      },
    ],
    pollIntervalMs: 200,
    sweepIntervalMs: 60_000,
  });
  let most = 0;
  for (let waited = 0; done < 128 && waited < 60_000; waited += 100) {
    const {
      rows: [row],
    } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
      [db.name],
    );
    most = Math.max(most, row!.n);
    await sleep(100);
  }
  expect(done).toBe(128);
  // a job leaves the queue in a statement after its task returned, queued for one of the few
  // connections: the last ones leave a moment after the last task ran, and none may stay
  await pollUntil(
    async () =>
      (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM graphile_worker.jobs`))
        .rows[0]!.n,
    (left) => left === 0,
    10_000,
  );
  expect(most).toBeLessThanOrEqual(LIMIT);
});
