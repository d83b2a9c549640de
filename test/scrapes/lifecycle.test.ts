// The request lifecycle around the scrape itself: the forced re-scrape cooldown, the 15-minute
// lifetime of a status record, bulk requests, and a worker killed mid-scrape. Each test stands
// alone: the one that kills a worker has a harness without an in-process worker of its own, the
// others share one with a worker, and each makes the catalog state it reads.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureStorefronts, type FixtureStorefronts } from './support/fixture-storefronts.ts';
import { startScrapeHarness, type ScrapeHarness } from './support/scrape-harness.ts';

let fixtures: FixtureStorefronts;
let harness: ScrapeHarness;

beforeAll(async () => {
  fixtures = await startFixtureStorefronts();
  harness = await startScrapeHarness({ env: { EGRESS_OVERRIDES: fixtures.overrides } });
});
afterAll(async () => {
  await harness?.close();
  await fixtures?.close();
});

describe('a worker killed mid-scrape', () => {
  // no worker in this process until the killed one is gone: the job must be the child's
  let alone: ScrapeHarness;
  beforeAll(async () => {
    alone = await startScrapeHarness({
      env: { EGRESS_OVERRIDES: fixtures.overrides },
      worker: false,
    });
  });
  afterAll(async () => {
    await alone?.close();
  });

  it('leaves the request retried to its end, never stuck', async () => {
    fixtures.hold('/products.json');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('../../app/worker.ts', import.meta.url))],
      {
        env: {
          ...process.env,
          DATABASE_URL: alone.databaseUrl,
          EGRESS_OVERRIDES: fixtures.overrides,
          LOG_LEVEL: 'silent',
          EGRESS_HOST_INTERVAL_MS: '0',
          EGRESS_TIMEOUT_MS: '60000',
          REDIS_URL: '',
        },
        stdio: 'ignore',
      },
    );
    try {
      const { body } = await alone.post('/v1/scrapes', { domain: 'shop-a.test' });
      const id = body.id as string;
      await alone.waitFor(id, ['scraping'], 30_000);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      fixtures.release();

      await alone.startWorker();
      const ended = await alone.waitFor(id, ['done', 'failed'], 30_000);
      expect(ended.status).toBe('done');
      expect((await alone.get('/v1/stores/shop-a.test')).status).toBe(200);
    } finally {
      child.kill('SIGKILL');
      fixtures.release();
    }
  });
});

describe('forced re-scrape cooldown', () => {
  it('answers 429 rate_limited with Retry-After within 5 minutes, and accepts after', async () => {
    harness.clock.advance(5 * 60_000); // past any request of shop-a.test made before in this file
    const first = await harness.post('/v1/scrapes', { domain: 'shop-a.test', force: true });
    expect(first.status).toBe(202);
    harness.clock.advance(60_000);
    const second = await harness.post('/v1/scrapes', { domain: 'shop-a.test', force: true });
    expect(second.status).toBe(429);
    expect(second.body.error).toMatchObject({
      code: 'rate_limited',
      details: { domain: 'shop-a.test', cooldownSeconds: 300 },
    });
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(235);
    expect(Number(second.headers['retry-after'])).toBeLessThanOrEqual(240);
    harness.clock.advance(4 * 60_000);
    expect((await harness.post('/v1/scrapes', { domain: 'shop-a.test', force: true })).status).toBe(
      202,
    );

    // the cooldown counts from the newest request: one minute after it (six after the first) is too soon
    harness.clock.advance(60_000);
    const third = await harness.post('/v1/scrapes', { domain: 'shop-a.test', force: true });
    expect(third.status).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(235);
    expect(Number(third.headers['retry-after'])).toBeLessThanOrEqual(240);
  });
});

describe('status record lifetime', () => {
  it('is readable until 15 minutes after the request ended, then not_found', async () => {
    const { body } = await harness.post('/v1/scrapes', { domain: 'notshop.test' });
    const ended = await harness.waitFor(body.id, ['failed']);
    harness.clock.advance(Date.parse(ended.expiresAt) - harness.clock.now().getTime() - 1_000);
    expect((await harness.get(`/v1/scrapes/${ended.id}`)).status).toBe(200);
    harness.clock.advance(2_000);
    const gone = await harness.get(`/v1/scrapes/${ended.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
  });
});

describe('bulk', () => {
  beforeAll(async () => {
    // shop-a.test is in the catalog (its already_exists item); asked again, it answers that
    const { body } = await harness.post('/v1/scrapes', { domain: 'shop-a.test' });
    if (body.id) expect((await harness.waitFor(body.id, ['done', 'failed'])).status).toBe('done');
  });

  it('handles each URL as a single request, with one outcome per item', async () => {
    const response = await harness.post('/v1/scrapes/bulk', {
      urls: [
        'https://www.dropper.test/',
        'shop-a.test',
        'dropper.test',
        'not a domain',
        'changing.test',
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body.data.map((i: { outcome: string }) => i.outcome)).toEqual([
      'queued',
      'already_exists',
      'duplicate',
      'rejected',
      'queued',
    ]);
    expect(response.body.counts).toEqual({
      queued: 2,
      alreadyExists: 1,
      duplicate: 1,
      rejected: 1,
    });
    expect(response.body.data[3].error.code).toBe('bad_request');
    const queued = response.body.data.filter((i: { outcome: string }) => i.outcome === 'queued');
    // each queued item carries its request's id at the item's top level; the others carry none
    for (const item of response.body.data)
      expect(item.id).toBe(item.outcome === 'queued' ? item.scrape.id : null);
    expect(queued.every((i: { id: unknown }) => typeof i.id === 'string')).toBe(true);
    for (const item of queued)
      expect((await harness.waitFor(item.id, ['done', 'failed'])).status).toBe('done');
  });

  it('refuses more than 10 URLs', async () => {
    const response = await harness.post('/v1/scrapes/bulk', {
      urls: Array.from({ length: 11 }, (_, i) => `s${i}.test`),
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.parameter).toBe('urls');
  });
});
