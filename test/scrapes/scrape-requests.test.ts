// POST /v1/scrapes -> the durable queue -> the scraper against the fixture storefronts -> the
// catalog, read back through GET /v1/scrapes/{id} and GET /v1/stores/{domain}.
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

async function scrape(domain: string, extra: Record<string, unknown> = {}) {
  const response = await harness.post('/v1/scrapes', { domain, ...extra });
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  return response.body.id as string;
}

/** Makes `domain` a catalog store by scraping it, unless an earlier test of this file already did. */
async function ensureScraped(domain: string) {
  if ((await harness.get(`/v1/stores/${domain}`)).status === 200) return;
  expect((await harness.waitFor(await scrape(domain), ['done', 'failed'])).status).toBe('done');
}

describe('a scrape of a store missing from the catalog', () => {
  it('answers 202 with the request itself at the top level, then goes through validating and scraping to done', async () => {
    const response = await harness.post('/v1/scrapes', { domain: 'https://www.Shop-A.test/' });
    expect(response.status).toBe(202);
    // the contract: "HTTP 202 with the request id" — the scrape request's own fields, not nested
    expect(response.body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'queued',
      domain: 'shop-a.test',
      force: false,
      callbackUrl: null,
      failureReason: null,
      createdAt: expect.any(String),
      outcome: 'queued',
      storeUrl: '/v1/stores/shop-a.test',
    });
    expect(response.body).not.toHaveProperty('scrape');
    expect((await harness.get(`/v1/scrapes/${response.body.id}`)).body).toMatchObject({
      id: response.body.id,
      domain: 'shop-a.test',
    });

    const done = await harness.waitFor(response.body.id, ['done', 'failed']);
    expect(done.status).toBe('done');
    expect(Date.parse(done.startedAt)).toBeGreaterThanOrEqual(Date.parse(done.createdAt));
    expect(Date.parse(done.expiresAt) - Date.parse(done.finishedAt)).toBe(15 * 60_000);
  });

  it('makes the store readable at GET /v1/stores/{domain} with what the storefront shows', async () => {
    await ensureScraped('shop-a.test');
    const { status, body: store } = await harness.get('/v1/stores/shop-a.test');
    expect(status).toBe(200);
    expect(store).toMatchObject({
      domain: 'shop-a.test',
      name: 'Shop A',
      countryCode: 'GB',
      currency: 'GBP',
      vertical: 'Apparel & Accessories',
      isDropshipper: false,
      emails: ['support@shop-a.test'],
    });
    expect(store.socials).toMatchObject({
      instagram: 'https://instagram.com/shopa',
      facebook: 'https://facebook.com/shopa.official',
    });
    expect(store.metrics.productCount).toBe(4);
    expect(store.monthlyVisits).toBeGreaterThan(0);
    expect(store.monthlyRevenueUsd.high).toBeGreaterThan(store.monthlyRevenueUsd.low);
    const apps = await harness.get('/v1/stores/shop-a.test/apps');
    expect(apps.body.data.map((a: { slug: string }) => a.slug).sort()).toEqual([
      'judgeme',
      'tidio-chat',
    ]);
    const best = await harness.get('/v1/stores/shop-a.test/products?isBestSeller=true');
    expect(best.body.data.map((p: { handle: string }) => p.handle).sort()).toEqual([
      'linen-shirt',
      'wool-coat',
    ]);
    const history = await harness.get('/v1/stores/shop-a.test/history');
    expect(history.body.data).toHaveLength(1);
  });

  it('classifies a dropshipping storefront as a dropshipper', async () => {
    await harness.waitFor(await scrape('dropper.test'), ['done']);
    const { body } = await harness.get('/v1/stores/dropper.test');
    expect(body.isDropshipper).toBe(true);
  });
});

describe('the same caller asking again while its scrape is under way', () => {
  // no worker at first, so every request meets the first one still queued
  let queueOnly: ScrapeHarness;
  beforeAll(async () => {
    queueOnly = await startScrapeHarness({
      env: { EGRESS_OVERRIDES: fixtures.overrides },
      worker: false,
    });
  });
  afterAll(async () => {
    await queueOnly?.close();
  });

  it('answers 20 parallel requests for a domain not in the catalog with one request and one job', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => queueOnly.post('/v1/scrapes', { domain: 'shop-a.test' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    const ids = new Set(answers.map((a) => a.body.id as string));
    expect(ids.size).toBe(1);
    const [id] = [...ids] as [string];
    const { rows } = await queueOnly.services.db.pool.query(
      `SELECT (SELECT count(*)::int FROM scrape_requests WHERE domain = 'shop-a.test') AS requests,
              (SELECT count(*)::int FROM graphile_worker.jobs WHERE task_identifier = 'scrape-store') AS jobs`,
    );
    expect(rows[0]).toEqual({ requests: 1, jobs: 1 });

    await queueOnly.startWorker();
    expect((await queueOnly.waitFor(id, ['done', 'failed'])).status).toBe('done');
    // once it has ended, the store is in the catalog: a further request is already_exists, a forced one a new scrape
    expect((await queueOnly.post('/v1/scrapes', { domain: 'shop-a.test' })).body.outcome).toBe(
      'already_exists',
    );
  });
});

describe('a store already in the catalog', () => {
  it('answers already_exists without a job unless force is true', async () => {
    await ensureScraped('shop-a.test');
    const response = await harness.post('/v1/scrapes', { domain: 'shop-a.test' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      outcome: 'already_exists',
      domain: 'shop-a.test',
      storeUrl: '/v1/stores/shop-a.test',
    });
  });

  it('records price changes, new and removed SKUs, app installs and removals on a forced re-scrape', async () => {
    await harness.waitFor(await scrape('changing.test'), ['done']);
    fixtures.setVersion('changing.test', 2);
    harness.clock.advance(5 * 60_000 + 1_000);
    await harness.waitFor(await scrape('changing.test', { force: true }), ['done']);

    const { body } = await harness.get('/v1/changes?domain=changing.test&limit=50');
    const changes = body.data
      .map((c: { changeType: string; subject: string | null }) => `${c.changeType}:${c.subject}`)
      .sort();
    expect(changes).toEqual([
      'app_installed:klaviyo-email-marketing',
      'app_uninstalled:judgeme',
      'new_sku:vase',
      'price_decrease:mug',
      'removed_sku:bowl',
      'theme_changed:null',
    ]);
    const products = await harness.get('/v1/stores/changing.test/products');
    expect(products.body.data.map((p: { handle: string }) => p.handle).sort()).toEqual([
      'mug',
      'plate',
      'vase',
    ]);
  });
});

describe('validation failures', () => {
  it.each([
    ['notshop.test', /not a Shopify storefront/, 'NOT_SHOPIFY'],
    ['silent.test', /did not answer within 1500 ms/, 'UNREACHABLE'],
    ['nowhere.test', /does not resolve/, 'UNRESOLVABLE'],
  ])(
    'fails %s with a clear reason, and GraphQL with its failure code',
    async (domain, reason, code) => {
      const id = await scrape(domain);
      const failed = await harness.waitFor(id, ['done', 'failed']);
      expect(failed.status).toBe('failed');
      expect(failed.failureReason).toMatch(reason);
      // REST's record is the contract's: the code is GraphQL's alone
      expect(failed).not.toHaveProperty('failureCode');
      const read = await harness.post('/graphql', {
        query: 'query ($id: ID!) { scrapeRequest(id: $id) { failureReason failureCode } }',
        variables: { id },
      });
      expect(read.body.data.scrapeRequest).toEqual({
        failureReason: failed.failureReason,
        failureCode: code,
      });
    },
  );
});

describe('request validation', () => {
  it('refuses a callbackUrl that is not HTTPS', async () => {
    const response = await harness.post('/v1/scrapes', {
      domain: 'new-store.test',
      callbackUrl: 'http://hooks.example.com/x',
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'bad_request',
      details: { parameter: 'callbackUrl' },
    });
  });

  it('refuses unknown body fields and a missing domain', async () => {
    expect(
      (await harness.post('/v1/scrapes', { domain: 'a.test', priority: 1 })).body.error.details
        .parameter,
    ).toBe('priority');
    expect((await harness.post('/v1/scrapes', {})).body.error.details).toMatchObject({
      parameter: 'domain',
    });
  });

  it('answers not_found for an id that never existed', async () => {
    const response = await harness.get('/v1/scrapes/00000000-0000-4000-8000-000000000000');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });
});
