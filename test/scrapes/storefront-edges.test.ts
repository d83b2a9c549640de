// What real storefronts do that a scrape must survive: a storefront that moved to another host (a
// redirect there is never followed into a catalog entry under the old name), a redirect to its own
// www name (the same store), and products.json rate limits (429 with Retry-After: waited out within
// the job up to a bound, then a failure that says so).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { storefrontClient } from '../../src/storefront/storefront-client.ts';
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

async function scrapeToEnd(domain: string) {
  const response = await harness.post('/v1/scrapes', { domain });
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  return harness.waitFor(response.body.id, ['done', 'failed'], 30_000);
}

const storesNamed = async (...domains: string[]) =>
  (
    await harness.services.db.pool.query<{ domain: string }>(
      'SELECT domain FROM stores WHERE domain = ANY($1) ORDER BY domain',
      [domains],
    )
  ).rows.map((r) => r.domain);

describe('a storefront that redirects to another host', () => {
  it('fails as moved, naming the new host, when its homepage redirects there; nothing is written under either name', async () => {
    const ended = await scrapeToEnd('moved.test');
    expect(ended.status).toBe('failed');
    expect(ended.failureReason).toMatch(/^moved\.test moved: .*redirects to shop-a\.test/);
    expect((await harness.get('/v1/stores/moved.test')).status).toBe(404);
    expect(await storesNamed('moved.test', 'shop-a.test')).toEqual([]);
  });

  it('fails as moved when only products.json redirects to another store: none of its products are saved', async () => {
    const ended = await scrapeToEnd('moved-products.test');
    expect(ended.status).toBe('failed');
    expect(ended.failureReason).toContain('/products.json redirects to shop-a.test');
    expect(await storesNamed('moved-products.test', 'shop-a.test')).toEqual([]);
    const { rows } = await harness.services.db.pool.query(
      'SELECT count(*)::int AS n FROM products',
    );
    expect(rows[0].n).toBe(0);
  });

  it('follows a redirect to its own www name: the same store, saved under its canonical domain', async () => {
    const ended = await scrapeToEnd('www-first.test');
    expect(ended.status, ended.failureReason).toBe('done');
    const store = await harness.get('/v1/stores/www-first.test');
    expect(store.status).toBe(200);
    expect(store.body.metrics.productCount).toBe(4);
  });
});

describe('a storefront that answers only on its www name', () => {
  it('is scraped when the caller gives the www name (its apex does not resolve), saved under its canonical domain', async () => {
    // every host the worker's storefront client asks of the transport, in order
    const egress = storefrontClient(harness.services).egress;
    const original = egress.fetch;
    const asked: string[] = [];
    const spy = vi.spyOn(egress, 'fetch').mockImplementation((input, request) => {
      asked.push(new URL(input).hostname);
      return original.call(egress, input, request);
    });
    let ended: Awaited<ReturnType<typeof scrapeToEnd>>;
    try {
      ended = await scrapeToEnd('www.wwwonly.test');
    } finally {
      spy.mockRestore();
    }
    expect(ended.status, ended.failureReason).toBe('done');
    // the name the caller typed is asked first; the apex it never gave is not looked up at all
    const ofStore = asked.filter((host) => host.endsWith('wwwonly.test'));
    expect(ofStore[0]).toBe('www.wwwonly.test');
    expect(ofStore).not.toContain('wwwonly.test');
    expect(fixtures.requests).toContain('www.wwwonly.test/products.json?limit=250&page=1');
    const store = await harness.get('/v1/stores/wwwonly.test');
    expect(store.status).toBe(200);
    expect(store.body.metrics.productCount).toBe(4);
    expect((await harness.get('/v1/stores/www.wwwonly.test')).body.domain).toBe('wwwonly.test');
  });
});

describe('a storefront that rate-limits products.json', () => {
  it('waits out a 429 with Retry-After within the job and completes', async () => {
    const ended = await scrapeToEnd('busy.test');
    expect(ended.status, ended.failureReason).toBe('done');
    // the 429 was met and the same page asked again
    expect(
      fixtures.requests.filter((r) => r.startsWith('busy.test/products.json?limit=250&page=1')),
    ).toHaveLength(2);
    expect((await harness.get('/v1/stores/busy.test')).body.metrics.productCount).toBe(4);
  });

  it('fails with the reason when the storefront asks to wait longer than the bound', async () => {
    const ended = await scrapeToEnd('throttled.test');
    expect(ended.status).toBe('failed');
    expect(ended.failureReason).toMatch(
      /rate-limited \/products\.json \(HTTP 429, Retry-After 120\)/,
    );
    expect(await storesNamed('throttled.test')).toEqual([]);
  });
});
