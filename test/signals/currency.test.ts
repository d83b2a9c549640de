// Money with its currency: a yen store's estimated sales are in yen and say so, never labelled USD
// (revenueUsd is null there), a dollar store's say USD, and product change records carry the
// currency their prices are in. Worked example: one unit of a ¥5,423 variant sold between two
// probes is revenue 5423 JPY; one unit of a $12.50 mug is 12.5 USD.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureShop } from './support/stock-storefront.ts';
import { startSignalsHarness, type SignalsHarness } from './support/signals-harness.ts';

const DAY = 86_400_000;

const shopOf = (name: string, currency: string, priceCents: number): FixtureShop => ({
  name,
  currency,
  exposesStock: true,
  products: [
    {
      handle: 'kettle',
      title: 'Kettle',
      variants: [{ id: 501, sku: 'KETTLE', title: 'Default Title', priceCents, stock: 20 }],
    },
  ],
});

let h: SignalsHarness;
let key: string;

async function scrape(domain: string) {
  const queued = await h.request('POST', '/v1/scrapes', { key, body: { domain } });
  expect(queued.status, JSON.stringify(queued.body)).toBe(202);
  for (;;) {
    const { body } = await h.request('GET', `/v1/scrapes/${queued.body.id}`, { key });
    if (body.status === 'done') return;
    expect(body.status).not.toBe('failed');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  h = await startSignalsHarness({
    shops: new Map([
      ['yen.test', shopOf('Yen Shop', 'JPY', 542_300)],
      ['dollar.test', shopOf('Dollar Shop', 'USD', 1_250)],
    ]),
  });
  key = await h.mintKey();
  for (const domain of ['yen.test', 'dollar.test']) {
    await scrape(domain);
    expect((await h.request('POST', '/v1/signals', { key, body: { domain } })).status).toBe(201);
    expect((await h.waitForProbe(domain, key)).progress.status).toBe('done');
  }
  // a day later one unit of each sold, and the yen kettle 10 % dearer
  h.clock.advance(DAY);
  h.storefront.setStock('yen.test', 501, 19);
  h.storefront.setStock('dollar.test', 501, 19);
  h.storefront.setPrice('yen.test', 501, 596_500);
  for (const domain of ['yen.test', 'dollar.test']) {
    expect((await h.request('POST', `/v1/signals/${domain}/probe`, { key })).status).toBe(202);
    expect((await h.waitForProbe(domain, key)).progress.status).toBe('done');
  }
}, 90_000);

afterAll(async () => {
  await h?.close();
});

describe('money with its currency', () => {
  it("gives a yen store's daily sales in yen, named, with no USD figure", async () => {
    const sales = await h.request('GET', '/v1/signals/yen.test/sales', { key });
    expect(sales.status).toBe(200);
    expect(sales.body.data).toEqual([
      expect.objectContaining({ units: 1, revenue: 5423, currency: 'JPY', revenueUsd: null }),
    ]);

    const dollars = await h.request('GET', '/v1/signals/dollar.test/sales', { key });
    expect(dollars.body.data).toEqual([
      expect.objectContaining({ units: 1, revenue: 12.5, currency: 'USD', revenueUsd: 12.5 }),
    ]);
  });

  it("gives a yen store's totals and top variants in yen, named", async () => {
    const stats = await h.request('GET', '/v1/signals/yen.test/stats', { key });
    expect(stats.status).toBe(200);
    expect(stats.body.sales).toMatchObject({
      units: 1,
      revenue: 5423,
      revenuePerDay: 5423,
      currency: 'JPY',
      revenueUsd: null,
      revenuePerDayUsd: null,
    });
    expect(stats.body.topVariants).toEqual([
      expect.objectContaining({ units: 1, revenue: 5423, currency: 'JPY', revenueUsd: null }),
    ]);
  });

  it('names the currency of every variant price in the inventory', async () => {
    const inventory = await h.request('GET', '/v1/signals/yen.test/inventory', { key });
    expect(inventory.status).toBe(200);
    expect(inventory.body.data).toEqual([
      expect.objectContaining({ price: 5965, currency: 'JPY' }),
    ]);
  });

  it("gives the ads overview's daily sales and lift in yen, named, with no USD figure", async () => {
    const overview = await h.request('GET', '/v1/signals/yen.test/ads/overview?days=2', { key });
    expect(overview.status).toBe(200);
    expect(overview.body.currency).toBe('JPY');
    const sold = overview.body.daily.find((d: any) => d.units === 1);
    expect(sold).toMatchObject({ units: 1, revenue: 5423, revenueUsd: null });
    expect(overview.body.lift).toMatchObject({
      meanRevenueAfterLaunchUsd: null,
      meanRevenueOtherDaysUsd: null,
      meanRevenueOtherDays: 5423,
    });
  });

  it('carries the currency on product change records', async () => {
    const changes = await h.request('GET', '/v1/signals/yen.test/products/changes', { key });
    expect(changes.status).toBe(200);
    expect(changes.body.data).toEqual([
      expect.objectContaining({
        changeType: 'price_increase',
        subject: 'kettle',
        oldValue: '5423.00',
        newValue: '5965.00',
        currency: 'JPY',
      }),
    ]);
  });
});
