// On-demand scrapes jump the queue: observations run on a job runner of their own, so a scrape
// requested while every observation slot is busy and a backlog waits is done without waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, startCatalogHarness, type CatalogHarness } from './support/catalog-harness.ts';

let h: CatalogHarness;

beforeAll(async () => {
  h = await startCatalogHarness({
    env: { CATALOG_CONCURRENCY: '1', CATALOG_WORKER_CONCURRENCY: '1' },
  });
  await h.offer(['changing.test']);
  await h.waitForRow(
    `SELECT 1 FROM catalog_candidates WHERE domain = 'changing.test' AND status = 'accepted'`,
  );
});
afterAll(async () => {
  h?.fixtures.release();
  await h?.close();
});

describe('an on-demand scrape', () => {
  it('is done while the scheduler is busy and has a backlog', async () => {
    h.fixtures.hold('changing.test/products.json');
    const requests = h.fixtures.requests.length;
    await h.advance(8 * DAY_MS);
    const deadline = Date.now() + 20_000;
    while (
      !h.fixtures.requests.slice(requests).some((r) => r.startsWith('changing.test/products.json'))
    ) {
      if (Date.now() > deadline) throw new Error('the observation never started');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await h.offer(['dropper.test']); // waits behind the busy slot

    const { body } = await h.post('/v1/scrapes', { domain: 'shop-a.test' });
    expect((await h.waitFor(body.id, ['done', 'failed'])).status).toBe('done');
    const {
      rows: [backlog],
    } = await h.pool.query(
      `SELECT status::text FROM catalog_candidates WHERE domain = 'dropper.test'`,
    );
    expect(backlog.status).toBe('pending');

    // the backlog goes on once the slot is free
    h.fixtures.release();
    await h.tick();
    await h.waitForRow(
      `SELECT 1 FROM catalog_candidates WHERE domain = 'dropper.test' AND status = 'accepted'`,
    );
  });
});
