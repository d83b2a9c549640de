// The catalog tick's one pending job: a tick asked for now (an import, the sweep) is never
// postponed by the tick that was running meanwhile and queues its own next one for later.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueTick } from '../../src/crawler/catalog-tick.ts';
import { JOB_SCHEMA, migrateJobQueue } from '../../src/platform/jobs/job-queue.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await migrateJobQueue(pool);
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const pendingTick = async () => {
  const { rows } = await pool.query<{ in_ms: number }>(
    `SELECT (extract(epoch FROM run_at - now()) * 1000)::float8 AS in_ms FROM ${JOB_SCHEMA}.jobs WHERE task_identifier = 'catalog-tick'`,
  );
  expect(rows).toHaveLength(1);
  return rows[0]!.in_ms;
};

describe('the catalog tick', () => {
  it('keeps a tick asked for now when the running tick queues its next one a minute later', async () => {
    await queueTick(pool);
    expect(await pendingTick()).toBeLessThan(5_000);
    await queueTick(pool, 60_000, true);
    expect(await pendingTick()).toBeLessThan(5_000);
    // asked for explicitly, a later time replaces the pending one
    await queueTick(pool, 60_000);
    expect(await pendingTick()).toBeGreaterThan(50_000);
  });
});
