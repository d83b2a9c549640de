// A probe's storefront observation is an observation like any other: it is written by the catalog's
// one writer (the profile, today's history row, lastScrapedAt and the store's schedule agree), and
// the probe is done only once what it observed is written, so a client that polls until done and
// then reads the product changes sees everything the probe found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureShop } from './support/stock-storefront.ts';
import { startSignalsHarness, type SignalsHarness } from './support/signals-harness.ts';

const DOMAIN = 'seven.test';
const HOUR = 3_600_000;

const product = (n: number, priceCents: number) => ({
  handle: `item-${n}`,
  title: `Item ${n}`,
  variants: [{ id: 1000 + n, sku: `ITEM-${n}`, title: 'Default Title', priceCents, stock: 20 }],
});

let h: SignalsHarness;
let key: string;
let shop: FixtureShop;

beforeAll(async () => {
  shop = {
    name: 'Seven Shop',
    exposesStock: true,
    products: [1, 2, 3, 4, 5, 6, 7].map((n) => product(n, 1000 + n * 100)),
  };
  h = await startSignalsHarness({ shops: new Map([[DOMAIN, shop]]) });
  key = await h.mintKey();
  // the store enters the catalog by a scrape: 7 products
  const scrape = await h.request('POST', '/v1/scrapes', { key, body: { domain: DOMAIN } });
  expect(scrape.status, JSON.stringify(scrape.body)).toBe(202);
  for (let ended = false; !ended; ) {
    const { body } = await h.request('GET', `/v1/scrapes/${scrape.body.id}`, { key });
    expect(body.status).not.toBe('failed');
    ended = body.status === 'done';
    if (!ended) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect((await h.request('POST', '/v1/signals', { key, body: { domain: DOMAIN } })).status).toBe(
    201,
  );
  expect((await h.waitForProbe(DOMAIN, key)).progress.status).toBe('done');
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe("a probe's observation of the storefront", () => {
  let probedAt: Date;

  beforeAll(async () => {
    // an hour later the same day: an eighth product, and item-1 30 % cheaper
    h.clock.advance(HOUR);
    shop.products.push(product(8, 2500));
    shop.products[0]!.variants[0]!.priceCents = 770;
    // reading the catalog takes a while, as on a large store (within the egress timeout)
    h.storefront.slow('/products.json', 800);
    probedAt = h.clock.now();
    expect((await h.request('POST', `/v1/signals/${DOMAIN}/probe`, { key })).status).toBe(202);
    expect((await h.waitForProbe(DOMAIN, key, 30_000)).progress.status).toBe('done');
  }, 60_000);

  it('is done only once its change records exist: read right after done, the changes are all there', async () => {
    const changes = await h.request('GET', `/v1/signals/${DOMAIN}/products/changes`, { key });
    expect(changes.status).toBe(200);
    expect(
      changes.body.data.map((c: any) => [c.changeType, c.subject, c.oldValue, c.newValue]).sort(),
    ).toEqual([
      ['new_sku', 'item-8', null, '25.00'],
      ['price_decrease', 'item-1', '11.00', '7.70'],
    ]);
  });

  it("writes the profile, today's history row and lastScrapedAt as one observation", async () => {
    const profile = await h.request('GET', `/v1/stores/${DOMAIN}`, { key });
    expect(profile.status).toBe(200);
    expect(profile.body.metrics.productCount).toBe(8);
    expect(profile.body.lastScrapedAt).toBe(probedAt.toISOString());
    expect(profile.body.observation).toMatchObject({
      presence: 'active',
      lastObservedAt: probedAt.toISOString(),
    });

    const history = await h.request('GET', `/v1/stores/${DOMAIN}/history?limit=5`, { key });
    expect(history.status).toBe(200);
    const today = history.body.data.find(
      (row: any) => row.day === probedAt.toISOString().slice(0, 10),
    );
    expect(today).toMatchObject({ productCount: 8, synthetic: false });

    const { rows } = await h.services.db.pool.query(
      `SELECT trigger, outcome, changes FROM observation_log WHERE domain = $1 ORDER BY id`,
      [DOMAIN],
    );
    expect(rows.at(-1)).toEqual({ trigger: 'probe', outcome: 'ok', changes: 2 });
  });
});
