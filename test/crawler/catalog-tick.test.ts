// The catalog tick's one pending job: a tick asked for now (an import, the sweep) is never
// postponed by the tick that was running meanwhile and queues its own next one for later.
import { beforeAll, describe, expect, it } from 'vitest';
import { queueTick } from '../../src/crawler/catalog-tick.ts';
import { JOB_SCHEMA, migrateJobQueue } from '../../src/platform/jobs/job-queue.ts';
import { suiteDatabase } from '../support/database.ts';

const suite = suiteDatabase();

beforeAll(async () => {
  await migrateJobQueue(suite.pool);
});

const pendingTick = async () => {
  const { rows } = await suite.pool.query<{ in_ms: number }>(
    `SELECT (extract(epoch FROM run_at - now()) * 1000)::float8 AS in_ms FROM ${JOB_SCHEMA}.jobs WHERE task_identifier = 'catalog-tick'`,
  );
  expect(rows).toHaveLength(1);
  return rows[0]!.in_ms;
};

describe('the catalog tick', () => {
  it('keeps a tick asked for now when the running tick queues its next one a minute later', async () => {
    await queueTick(suite.pool);
    expect(await pendingTick()).toBeLessThan(5_000);
    await queueTick(suite.pool, 60_000, true);
    expect(await pendingTick()).toBeLessThan(5_000);
    // asked for explicitly, a later time replaces the pending one
    await queueTick(suite.pool, 60_000);
    expect(await pendingTick()).toBeGreaterThan(50_000);
  });
});
