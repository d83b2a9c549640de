// Estimated sales end to end: the fixture storefront's stock and prices move between probes on known
// days; stats and sales are empty with a note before 2 snapshots and exact afterwards; inventory
// shows restocks; insights (restock, price_change, sales_spike) per watch and in the inbox, with
// the kind filter; the manual probe cooldown answers 429 with Retry-After. The timeline is one
// story told once, in beforeAll, reading what each test checks at the moment it applies; so every
// test stands alone, whichever of them runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignalsHarness, type SignalsHarness } from './support/signals-harness.ts';

const DAY = 86_400_000;
let h: SignalsHarness;
let key: string;

/** moves the clock, sets the storefront, probes manually and waits for the probe to end */
async function probeOn(
  days: number,
  stock: Record<number, number>,
  prices: Record<number, number> = {},
) {
  h.clock.advance(days * DAY);
  for (const [id, value] of Object.entries(stock))
    h.storefront.setStock('stock.test', Number(id), value);
  for (const [id, cents] of Object.entries(prices))
    h.storefront.setPrice('stock.test', Number(id), cents);
  const queued = await h.request('POST', '/v1/signals/stock.test/probe', { key });
  expect(queued.status).toBe(202);
  expect(await h.waitForProbe('stock.test', key)).toMatchObject({
    kind: 'manual',
    progress: { status: 'done' },
  });
}

type Answer = Awaited<ReturnType<SignalsHarness['request']>>;
const get = (path: string) => h.request('GET', path, { key });

/** What the tests read, each at its point of the timeline. */
const seen = {} as {
  beforeTwo: { stats: Answer; sales: Answer };
  cooldown: { soon: Answer; later: Answer };
  afterDay4: Record<
    | 'sales'
    | 'paged'
    | 'first'
    | 'fromDay3'
    | 'stats'
    | 'month'
    | 'lastDay'
    | 'badDays'
    | 'insights'
    | 'restocks'
    | 'prices'
    | 'badKind',
    Answer
  >;
  spikes: Answer;
  inbox: Record<'inbox' | 'apps' | 'perWatch', Answer>;
  hidden: { probe: unknown; rows: unknown[]; stats: Answer };
};

beforeAll(async () => {
  h = await startSignalsHarness();
  key = await h.mintKey();
  await h.addStore('stock.test', [
    { handle: 'tee', title: 'Tee', price: 20, bestSellerRank: 1 },
    { handle: 'mug', title: 'Mug', price: 12.5, bestSellerRank: 2 },
    { handle: 'cap', title: 'Cap', price: 15 },
  ]);
  // day 1 (2030-01-07): TEE-S 50, TEE-M 40, MUG 30
  expect(
    (await h.request('POST', '/v1/signals', { key, body: { domain: 'stock.test' } })).status,
  ).toBe(201);
  expect(await h.waitForProbe('stock.test', key)).toMatchObject({
    progress: { status: 'done', snapshots: 3 },
  });
  seen.beforeTwo = {
    stats: await get('/v1/signals/stock.test/stats'),
    sales: await get('/v1/signals/stock.test/sales?from=2030-01-01'),
  };

  await probeOn(1, { 101: 45, 201: 27 }); // day 2: -5 TEE-S, -3 MUG
  const soon = await h.request('POST', '/v1/signals/stock.test/probe', { key });
  h.clock.advance(2 * 60_000);
  const later = await h.request('POST', '/v1/signals/stock.test/probe', { key });
  h.clock.advance(-2 * 60_000);
  seen.cooldown = { soon, later };

  await probeOn(1, { 101: 60, 102: 36 }, { 201: 1000 }); // day 3: TEE-S restock +15, -4 TEE-M, MUG price 12.50 -> 10.00
  await probeOn(1, { 101: 58, 201: 20 }); // day 4: -2 TEE-S, -7 MUG at 10.00
  seen.afterDay4 = {
    sales: await get('/v1/signals/stock.test/sales?from=2030-01-01'),
    paged: await get('/v1/signals/stock.test/sales?from=2030-01-01&limit=2&offset=1'),
    first: await get('/v1/signals/stock.test/sales?from=2030-01-01&limit=1'),
    fromDay3: await get('/v1/signals/stock.test/sales?from=2030-01-09'),
    stats: await get('/v1/signals/stock.test/stats'),
    month: await get('/v1/signals/stock.test/inventory?days=30'),
    lastDay: await get('/v1/signals/stock.test/inventory?days=1'),
    badDays: await get('/v1/signals/stock.test/inventory?days=0'),
    insights: await get('/v1/signals/stock.test/insights'),
    restocks: await get('/v1/signals/stock.test/insights?kind=restock'),
    prices: await get('/v1/signals/stock.test/insights?kind=price_change'),
    badKind: await get('/v1/signals/stock.test/insights?kind=gossip'),
  };

  await probeOn(1, { 101: 40 }); // day 5: 18 units against a median of 8
  h.clock.advance(10 * 60_000);
  await probeOn(0, { 101: 39 }); // the same day again: no second card
  seen.spikes = await get('/v1/signals/stock.test/insights?kind=sales_spike');

  await h.addStore('hidden.test', [
    { handle: 'lamp', title: 'Lamp', price: 45, bestSellerRank: 1 },
  ]);
  expect(
    (await h.request('POST', '/v1/signals', { key, body: { domain: 'hidden.test' } })).status,
  ).toBe(201);
  await h.waitForProbe('hidden.test', key);
  // an app_change card as the storefront observer writes it
  await h.services.db.pool.query(
    `INSERT INTO insights (signal_id, account_id, kind, title, body, data, created_at)
     SELECT w.id, w.account_id, 'app_change', 'hidden.test installed Klaviyo', 'Klaviyo appeared.', '{"appSlug":"klaviyo"}', $1
       FROM signals w JOIN stores s ON s.id = w.store_id WHERE s.domain = 'hidden.test'`,
    [new Date(h.clock.now().getTime() + 1000)],
  );
  seen.inbox = {
    inbox: await get('/v1/signals/insights?limit=2'),
    apps: await get('/v1/signals/insights?kind=app_change'),
    perWatch: await get('/v1/signals/hidden.test/insights'),
  };

  h.clock.advance(DAY);
  h.storefront.setStock('hidden.test', 401, 3);
  expect((await h.request('POST', '/v1/signals/hidden.test/probe', { key })).status).toBe(202);
  const probe = await h.waitForProbe('hidden.test', key);
  const { rows } = await h.services.db.pool.query(
    `SELECT stock, price::float AS price, available FROM inventory_snapshots s JOIN tracked_variants v ON v.id = s.tracked_variant_id WHERE v.sku = 'LAMP'`,
  );
  seen.hidden = { probe, rows, stats: await get('/v1/signals/hidden.test/stats') };
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('estimated sales', () => {
  it('answers stats and sales with empty data and a note before 2 snapshots (200, not an error)', () => {
    const { stats, sales } = seen.beforeTwo;
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({
      ready: false,
      sales: null,
      topVariants: [],
      snapshots: 3,
      probes: 1,
      estimate: true,
    });
    expect(stats.body.note).toContain('at least 2 inventory snapshots');
    expect(sales.status).toBe(200);
    expect(sales.body.data).toEqual([]);
    // the list envelope of every list: the default page size, not 0
    expect(sales.body.page).toEqual({ limit: 20, offset: 0, count: 0, hasMore: false, total: 0 });
    expect(sales.body.meta).toMatchObject({ ready: false, from: '2030-01-01', estimate: true });
    expect(sales.body.meta.note).toContain('at least 2 inventory snapshots');
  });

  it('refuses a second manual probe within 5 minutes: 429 with Retry-After and details', () => {
    const { soon, later } = seen.cooldown;
    expect(soon.status).toBe(429);
    expect(soon.headers['retry-after']).toBe('300');
    expect(soon.body.error).toMatchObject({
      code: 'rate_limited',
      details: { domain: 'stock.test', cooldownSeconds: 300, retryAfter: 300 },
    });
    expect(later.status).toBe(429);
    expect(later.headers['retry-after']).toBe('180');
  });

  it('estimates exact daily units and revenue from stock decreases, restocks kept apart', () => {
    const { sales, paged, first, fromDay3, stats } = seen.afterDay4;
    expect(sales.status).toBe(200);
    expect(sales.body.data).toEqual([
      { day: '2030-01-08', units: 8, revenue: 137.5, currency: 'USD', revenueUsd: 137.5 },
      { day: '2030-01-09', units: 4, revenue: 80, currency: 'USD', revenueUsd: 80 },
      { day: '2030-01-10', units: 9, revenue: 110, currency: 'USD', revenueUsd: 110 },
    ]);
    expect(sales.body.meta.ready).toBe(true);
    expect(sales.body.meta.method).toContain('Estimate');
    expect(paged.body.data.map((d: any) => d.day)).toEqual(['2030-01-09', '2030-01-10']);
    expect(paged.body.page).toEqual({ limit: 2, offset: 1, count: 2, hasMore: false, total: 3 });
    expect(first.body.page).toEqual({ limit: 1, offset: 0, count: 1, hasMore: true, total: 3 });
    expect(fromDay3.body.data.map((d: any) => d.day)).toEqual(['2030-01-09', '2030-01-10']);

    expect(stats.body).toMatchObject({
      ready: true,
      note: null,
      snapshots: 12,
      probes: 4,
      trackedVariants: 3,
      variantsWithoutStock: 0,
      firstSnapshotAt: '2030-01-07T10:00:00.000Z',
      lastSnapshotAt: '2030-01-10T10:00:00.000Z',
      sales: {
        days: 3,
        units: 21,
        revenue: 327.5,
        revenuePerDay: 109.17,
        currency: 'USD',
        revenueUsd: 327.5,
        unitsPerDay: 7,
        revenuePerDayUsd: 109.17,
        restocks: 1,
        restockedUnits: 15,
      },
    });
    expect(stats.body.topVariants.map((v: any) => [v.sku, v.units, v.revenueUsd])).toEqual([
      ['MUG', 10, 107.5],
      ['TEE-S', 7, 140],
      ['TEE-M', 4, 80],
    ]);
  });

  it('gives start and end stock, restocks and units per variant over the inventory window', () => {
    const { month, lastDay, badDays } = seen.afterDay4;
    expect(month.status).toBe(200);
    expect(month.body.page).toMatchObject({ count: 3, total: 3, hasMore: false });
    const row = (sku: string) => month.body.data.find((r: any) => r.sku === sku);
    expect(row('TEE-S')).toMatchObject({
      startStock: 50,
      endStock: 58,
      unitsSold: 7,
      restocks: { count: 1, units: 15 },
      price: 20,
    });
    expect(row('MUG')).toMatchObject({
      startStock: 30,
      endStock: 20,
      unitsSold: 10,
      restocks: { count: 0, units: 0 },
      price: 10,
    });
    // the last day only: from the day-3 snapshot on, after the restock
    expect(lastDay.body.data.find((r: any) => r.sku === 'TEE-S')).toMatchObject({
      startStock: 60,
      endStock: 58,
      restocks: { count: 0, units: 0 },
    });
    expect(badDays.status).toBe(400);
    expect(badDays.body.error.details.parameter).toBe('days');
  });

  it('records restock and price_change insights, newest first, filtered by kind', () => {
    const { insights, restocks, prices, badKind } = seen.afterDay4;
    expect(insights.status).toBe(200);
    expect(insights.body.data.map((i: any) => i.kind).sort()).toEqual(['price_change', 'restock']);
    expect(restocks.body.data).toHaveLength(1);
    expect(restocks.body.data[0]).toMatchObject({
      domain: 'stock.test',
      kind: 'restock',
      data: { sku: 'TEE-S', fromStock: 45, toStock: 60, units: 15 },
    });
    expect(prices.body.data[0]).toMatchObject({
      data: { sku: 'MUG', oldPrice: 12.5, newPrice: 10, changePct: -20 },
    });
    expect(badKind.status).toBe(400);
    expect(badKind.body.error.details.parameter).toBe('kind');
  });

  it('raises one sales_spike when a day reaches twice the trailing median', () => {
    expect(seen.spikes.body.data).toHaveLength(1);
    expect(seen.spikes.body.data[0].data).toMatchObject({
      day: '2030-01-11',
      units: 18,
      trailingMedianUnits: 8,
      trailingDays: 3,
    });
  });

  it('shows every watch’s cards in the account inbox, other helpers’ kinds included, newest first', () => {
    const { inbox, apps, perWatch } = seen.inbox;
    expect(inbox.status).toBe(200);
    expect(inbox.body.page).toMatchObject({ limit: 2, count: 2, hasMore: true, total: 4 });
    expect(inbox.body.data[0]).toMatchObject({
      domain: 'hidden.test',
      kind: 'app_change',
      data: { appSlug: 'klaviyo' },
    });
    expect(inbox.body.data[1]).toMatchObject({ domain: 'stock.test', kind: 'sales_spike' });
    expect(apps.body.data.map((i: any) => i.domain)).toEqual(['hidden.test']);
    expect(perWatch.body.data.map((i: any) => i.kind)).toEqual(['app_change']);
  });

  it('records price and availability but no sales for a store that hides stock, and says so', () => {
    const { probe, rows, stats } = seen.hidden;
    expect(probe).toMatchObject({ progress: { status: 'done', snapshots: 1 } });
    expect(rows).toEqual([
      { stock: null, price: 45, available: true },
      { stock: null, price: 45, available: true },
    ]);
    expect(stats.body).toMatchObject({
      ready: true,
      variantsWithoutStock: 1,
      sales: { units: 0, days: 0 },
    });
    expect(stats.body.note).toContain('do not expose stock');
  });
});
