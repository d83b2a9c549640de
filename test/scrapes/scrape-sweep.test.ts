// The sweep every worker runs: a request whose job can no longer run (its attempts used up, or the
// job gone) is failed with the job's last error, so no request stays queued or scraping forever.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepScrapes } from '../../src/scrapes/scrape-sweep.ts';
import { startFixtureStorefronts, type FixtureStorefronts } from './support/fixture-storefronts.ts';
import { startScrapeHarness, type ScrapeHarness } from './support/scrape-harness.ts';

let fixtures: FixtureStorefronts;
let harness: ScrapeHarness;

beforeAll(async () => {
  fixtures = await startFixtureStorefronts();
  // no worker: the test decides what happened to each job
  harness = await startScrapeHarness({
    env: { EGRESS_OVERRIDES: fixtures.overrides },
    worker: false,
  });
});
afterAll(async () => {
  await harness?.close();
  await fixtures?.close();
});

const sweep = () =>
  sweepScrapes(harness.services.db.pool, {
    pubsub: harness.services.pubsub,
    logger: harness.services.logger,
    clock: harness.clock.now,
    webhookMaxAttempts: 3,
  });

describe('the scrape sweep', () => {
  it("fails a request whose job used up its attempts, with the job's last error, and leaves a runnable one alone", async () => {
    const exhausted = (await harness.post('/v1/scrapes', { domain: 'shop-a.test' })).body
      .id as string;
    const runnable = (await harness.post('/v1/scrapes', { domain: 'dropper.test' })).body
      .id as string;
    await harness.services.db.pool.query(
      `UPDATE graphile_worker._private_jobs SET attempts = max_attempts, last_error = $2 WHERE key = $1`,
      [`scrape:${exhausted}`, 'Error: storefront exploded\n    at somewhere'],
    );
    await sweep();
    const ended = (await harness.get(`/v1/scrapes/${exhausted}`)).body;
    expect(ended).toMatchObject({ status: 'failed' });
    expect(ended.failureReason).toMatch(
      /^the scrape stopped after \d+ attempts; last error: Error: storefront exploded$/,
    );
    expect((await harness.get(`/v1/scrapes/${runnable}`)).body.status).toBe('queued');
  });

  it('fails a request whose job is gone altogether', async () => {
    const orphan = (await harness.post('/v1/scrapes', { domain: 'changing.test' })).body
      .id as string;
    await harness.services.db.pool.query(
      `DELETE FROM graphile_worker._private_jobs WHERE key = $1`,
      [`scrape:${orphan}`],
    );
    await sweep();
    expect((await harness.get(`/v1/scrapes/${orphan}`)).body).toMatchObject({
      status: 'failed',
      failureReason: 'the scrape stopped after 0 attempts',
    });
  });
});
