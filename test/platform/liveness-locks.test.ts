// The liveness locks of every job a worker runs share one session, and that session runs one
// statement at a time: jobs that start and end together wait their turn in the process instead of
// queueing queries on the client while it executes one (deprecated by pg, removed in pg 9; the
// crawl bench's workers, 64 observations at once, printed the deprecation). Every lock is held
// while its job runs and free once it ended, jobs that started while the session was connecting
// included (they were locked twice and unlocked once).
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LivenessLocks } from '../../src/platform/jobs/liveness.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 3 });
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

/** A pool whose clients count how many of their queries are in flight at once. */
function countingPool(inner: pg.Pool) {
  const counts = { inFlight: 0, most: 0 };
  const connect = async () => {
    const client = await inner.connect();
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    return new Proxy(client, {
      get(target, property, receiver) {
        if (property !== 'query') return Reflect.get(target, property, receiver);
        return async (...args: unknown[]) => {
          counts.inFlight++;
          counts.most = Math.max(counts.most, counts.inFlight);
          try {
            return await query(...args);
          } finally {
            counts.inFlight--;
          }
        };
      },
    });
  };
  return { pool: { connect } as unknown as pg.Pool, counts };
}

const advisoryLocksHeld = async () => {
  const {
    rows: [row],
  } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return row!.n;
};

it('locks and unlocks 32 jobs that run at once one statement at a time, each lock held while its job runs', async () => {
  const { pool: counted, counts } = countingPool(pool);
  const locks = new LivenessLocks(counted);
  const jobs = 32;
  let started = 0;
  let everyJobStarted!: () => void;
  let allRunning!: () => void;
  const started$ = new Promise<void>((resolve) => (everyJobStarted = resolve));
  const running$ = new Promise<void>((resolve) => (allRunning = resolve));
  const runs = Array.from({ length: jobs }, (_, i) =>
    locks.whileAlive(`job-${i}`, async () => {
      if (++started === jobs) everyJobStarted();
      await running$;
    }),
  );

  await started$;
  expect(await advisoryLocksHeld()).toBe(jobs);
  allRunning();
  await Promise.all(runs);
  expect(await advisoryLocksHeld()).toBe(0);
  expect(counts.most).toBe(1);
  await locks.close();
});
