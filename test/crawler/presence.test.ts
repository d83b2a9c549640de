// How the scheduler treats stores that fail: a store whose storefront is gone backs off, vanishes
// after three failures saying so, leaves search results (and its count) while staying readable by
// its domain, and comes back with one good observation. A busy store backs off without vanishing.
// Synthetic stores are never contacted nor scheduled. The console's view (crawlerStatus) counts them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VANISH_AFTER_FAILURES } from '../../src/storefront/observation-policy.ts';
import { DAY_MS, startCatalogHarness, type CatalogHarness } from './support/catalog-harness.ts';

let h: CatalogHarness;
const HOUR_MS = 3_600_000;

beforeAll(async () => {
  // lists are cached for RESPONSE_CACHE_TTL_MS whatever the crawler finds; here every answer is read fresh
  h = await startCatalogHarness({ env: { RESPONSE_CACHE_TTL_MS: '0' } });
  await h.offer(['linked.test']);
  await h.waitForRow(
    `SELECT 1 FROM catalog_candidates WHERE domain = 'linked.test' AND status = 'accepted'`,
  );
});
afterAll(() => h?.close());

const searchDomains = async (q: string) => {
  const { body } = await h.get(`/v1/stores?q=${q}&limit=100`);
  return {
    domains: body.data.map((s: { domain: string }) => s.domain) as string[],
    total: body.page.total as number,
  };
};
const observation = async (domain: string) =>
  (await h.get(`/v1/stores/${domain}`)).body.observation;

describe('a store whose storefront is gone', () => {
  it(`is failing, then vanished after ${VANISH_AFTER_FAILURES} failures: out of search results, still readable, never deleted`, async () => {
    expect((await searchDomains('linked.test')).domains).toContain('linked.test');
    const canadian = await h.get('/v1/stores?countryCode=CA&limit=100');
    expect(canadian.body.data.map((s: { domain: string }) => s.domain)).toContain('linked.test');
    h.fixtures.vanish('linked.test');

    let last = await h.lastLogId();
    await h.advance(8 * DAY_MS);
    expect(await h.nextObservation('linked.test', last)).toMatchObject({
      trigger: 'scheduled',
      outcome: 'not_found',
    });
    const failing = await observation('linked.test');
    expect(failing).toMatchObject({ presence: 'failing', failureKind: 'not_found' });
    // the first retry comes after 15 minutes, not at the store's interval
    const retryIn = Date.parse(failing.nextObservationAt) - h.clock.now().getTime();
    expect(retryIn).toBeGreaterThan(14 * 60_000);
    expect(retryIn).toBeLessThanOrEqual(15 * 60_000);
    expect((await searchDomains('linked.test')).domains).toContain('linked.test');

    for (let failure = 2; failure <= VANISH_AFTER_FAILURES; failure++) {
      last = await h.lastLogId();
      await h.advance(HOUR_MS);
      expect(await h.nextObservation('linked.test', last)).toMatchObject({ outcome: 'not_found' });
    }
    const vanished = await observation('linked.test');
    expect(vanished).toMatchObject({ presence: 'vanished', failureKind: 'not_found' });
    expect(Date.parse(vanished.nextObservationAt) - h.clock.now().getTime()).toBeGreaterThan(
      6 * DAY_MS,
    );

    const search = await searchDomains('linked.test');
    expect(search.domains).not.toContain('linked.test');
    const canadianNow = await h.get('/v1/stores?countryCode=CA&limit=100');
    expect(canadianNow.body.data.map((s: { domain: string }) => s.domain)).not.toContain(
      'linked.test',
    );
    expect(canadianNow.body.page.total).toBe(canadian.body.page.total - 1);
    const profile = await h.get('/v1/stores/linked.test');
    expect(profile.status).toBe(200);
    expect((await h.get('/v1/stores/linked.test/products')).body.data).toHaveLength(1);

    const status = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      payload: {
        query:
          '{ crawlerStatus(recentMinutes: 1440) { stores { vanished scheduled } recent { outcomes { outcome trigger count } } } }',
      },
    });
    const crawler = status.json().data.crawlerStatus;
    expect(crawler.stores.vanished).toBe(1);
    expect(crawler.recent.outcomes).toContainEqual({
      outcome: 'not_found',
      trigger: 'scheduled',
      count: VANISH_AFTER_FAILURES,
    });
  });

  it('comes back with one good observation', async () => {
    h.fixtures.restore('linked.test');
    const last = await h.lastLogId();
    await h.advance(8 * DAY_MS);
    expect(await h.nextObservation('linked.test', last)).toMatchObject({
      trigger: 'scheduled',
      outcome: 'ok',
    });
    expect(await observation('linked.test')).toMatchObject({
      presence: 'active',
      failureKind: null,
    });
    expect((await searchDomains('linked.test')).domains).toContain('linked.test');
  });
});

/** A store the catalog holds, observed before, due now. */
async function scheduledStore(domain: string): Promise<void> {
  const {
    rows: [store],
  } = await h.pool.query<{ id: number }>(
    `INSERT INTO stores (domain, name, monthly_visits) VALUES ($1, $1, 50000) RETURNING id`,
    [domain],
  );
  await h.pool.query(
    `INSERT INTO observation_schedule (store_id, next_at, interval_hours, presence_since) VALUES ($1, $2, 72, $2)`,
    [store!.id, h.clock.now()],
  );
}

describe('a scrape of a domain the catalog does not hold', () => {
  it('that moved offers nothing to discovery: its caller is told the new host', async () => {
    const { body } = await h.post('/v1/scrapes', { domain: 'moved-products.test' });
    const ended = await h.waitFor(body.id, ['done', 'failed']);
    expect(ended.failureReason).toContain('redirects to shop-a.test');
    const { rows } = await h.pool.query(
      `SELECT 1 FROM catalog_candidates WHERE found_on = 'moved-products.test'`,
    );
    expect(rows).toHaveLength(0);
    expect((await h.get('/v1/stores/shop-a.test')).status).toBe(404);
  });
});

describe('stores that moved or whose name is gone', () => {
  it('count as gone: a moved store names its new host and offers it to discovery', async () => {
    await scheduledStore('moved.test'); // now redirects to shop-a.test
    await scheduledStore('gone-dns.test'); // resolves nowhere
    const last = await h.lastLogId();
    await h.tick();
    expect(await h.nextObservation('moved.test', last)).toMatchObject({ outcome: 'moved' });
    expect(await h.nextObservation('gone-dns.test', last)).toMatchObject({
      outcome: 'unresolvable',
    });
    expect(await observation('moved.test')).toMatchObject({
      presence: 'failing',
      failureKind: 'moved',
      movedTo: 'shop-a.test',
    });
    expect(await observation('gone-dns.test')).toMatchObject({
      presence: 'failing',
      failureKind: 'unresolvable',
    });
    await h.waitForRow(
      `SELECT 1 FROM catalog_candidates WHERE domain = 'shop-a.test' AND source = 'moved' AND found_on = 'moved.test' AND status = 'accepted'`,
    );
  });
});

describe('a busy store', () => {
  it('backs off, honouring its Retry-After, and does not vanish', async () => {
    // a store the catalog holds that now answers products.json with 429 and Retry-After: 120
    await scheduledStore('throttled.test');
    for (let failure = 1; failure <= VANISH_AFTER_FAILURES + 1; failure++) {
      const last = await h.lastLogId();
      await h.advance(DAY_MS);
      expect(await h.nextObservation('throttled.test', last)).toMatchObject({
        outcome: 'rate_limited',
      });
    }
    const busy = await observation('throttled.test');
    expect(busy).toMatchObject({ presence: 'failing', failureKind: 'rate_limited' });
  });
});

describe('synthetic stores', () => {
  it('are never offered to the catalog, scheduled or contacted', async () => {
    await h.offer(['quiet.store.example']);
    const { rows: candidates } = await h.pool.query(
      `SELECT 1 FROM catalog_candidates WHERE domain LIKE '%.example'`,
    );
    expect(candidates).toHaveLength(0);

    const requests = h.fixtures.requests.length;
    const { body } = await h.post('/v1/scrapes', { domain: 'quiet.store.example' });
    const ended = await h.waitFor(body.id, ['done', 'failed']);
    expect(ended.status).toBe('failed');
    expect(ended.failureReason).toContain('synthetic');
    expect(h.fixtures.requests.length).toBe(requests);
    const { rows } = await h.pool.query(
      `SELECT 1 FROM observation_schedule o JOIN stores s ON s.id = o.store_id WHERE s.domain LIKE '%.example'`,
    );
    expect(rows).toHaveLength(0);
  });
});
