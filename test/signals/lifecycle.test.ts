// The watch lifecycle over REST: create (best-sellers tracked, first probe polled to done), 409,
// not_found, list, get (domain, URL, legacy id), pause/resume/stop with the durable schedule,
// swapping the tracked products, delete (the catalog stays), and a scheduled probe falling due.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignalsHarness, type SignalsHarness } from './support/signals-harness.ts';

const LEGACY_ID = 'a1b2c3d4e5f60718293a4b5c';
let h: SignalsHarness;
let key: string;

const scheduledJob = async (signalDomain: string) => {
  const { rows } = await h.services.db.pool.query<{ run_at: Date; locked_at: Date | null }>(
    `SELECT j.run_at, j.locked_at FROM graphile_worker._private_jobs j JOIN signals w ON j.key = 'signal-schedule:' || w.id
       JOIN stores s ON s.id = w.store_id WHERE s.domain = $1`,
    [signalDomain],
  );
  return rows[0] ?? null;
};

beforeAll(async () => {
  h = await startSignalsHarness({ env: { SIGNAL_PROBE_INTERVAL_MINUTES: '360' } });
  key = await h.mintKey();
  await h.addStore(
    'stock.test',
    [
      { handle: 'tee', title: 'Tee', price: 20, bestSellerRank: 1 },
      { handle: 'mug', title: 'Mug', price: 12.5, bestSellerRank: 2 },
      { handle: 'cap', title: 'Cap', price: 15 },
    ],
    LEGACY_ID,
  );
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('watch lifecycle', () => {
  it('creates a watch (201) tracking the best-sellers, and its first probe reads their variants', async () => {
    const created = await h.request('POST', '/v1/signals', {
      key,
      body: { domain: 'https://www.stock.test/' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      domain: 'stock.test',
      legacyId: LEGACY_ID,
      status: 'tracked',
      probe: { kind: 'first' },
    });
    expect(created.body.trackedVariants.map((v: any) => [v.productHandle, v.variantId])).toEqual([
      ['mug', null],
      ['tee', null],
    ]);
    expect(new Date(created.body.nextProbeAt).getTime()).toBe(
      h.clock.now().getTime() + 360 * 60_000,
    );

    const probe = await h.waitForProbe('stock.test', key);
    expect(probe).toMatchObject({
      kind: 'first',
      progress: { status: 'done', snapshots: 3 },
      error: null,
    });
    const watch = await h.request('GET', '/v1/signals/stock.test', { key });
    expect(watch.status).toBe(200);
    expect(
      watch.body.trackedVariants.map((v: any) => [
        v.productHandle,
        v.variantId,
        v.sku,
        v.title,
        v.active,
      ]),
    ).toEqual([
      ['mug', '201', 'MUG', 'Mug', true],
      ['tee', '101', 'TEE-S', 'Tee / S', true],
      ['tee', '102', 'TEE-M', 'Tee / M', true],
    ]);
    expect(watch.body.lastProbeAt).toBe(h.clock.now().toISOString());
    // the products of the untracked cap were never read
    expect(h.storefront.requests).not.toContain('stock.test/products/cap.js');
  });

  it('answers 409 with the error envelope when the account already watches the store', async () => {
    const again = await h.request('POST', '/v1/signals', { key, body: { domain: 'stock.test' } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({
      code: 'bad_request',
      details: { reason: 'already_tracked', domain: 'stock.test' },
    });
  });

  it('refuses a store missing from the catalog (not_found, pointing at scrapes) and a malformed domain', async () => {
    const missing = await h.request('POST', '/v1/signals', {
      key,
      body: { domain: 'nowhere.test' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({
      code: 'not_found',
      details: { domain: 'nowhere.test', scrape: 'POST /v1/scrapes' },
    });
    const bad = await h.request('POST', '/v1/signals', { key, body: { domain: 'not a domain' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('domain');
    const { rows } = await h.services.db.pool.query('SELECT count(*)::int AS n FROM signals');
    expect(rows[0].n).toBe(1);
  });

  it('lists the watches in the list envelope and reads one by domain, URL or legacy id', async () => {
    const list = await h.request('GET', '/v1/signals?limit=1', { key });
    expect(list.status).toBe(200);
    expect(list.body.page).toEqual({ limit: 1, offset: 0, count: 1, hasMore: false, total: 1 });
    expect(list.body.data[0].domain).toBe('stock.test');
    for (const id of [encodeURIComponent('https://www.stock.test'), LEGACY_ID]) {
      const one = await h.request('GET', `/v1/signals/${id}`, { key });
      expect(one.status).toBe(200);
      expect(one.body.domain).toBe('stock.test');
    }
    const tooBig = await h.request('GET', '/v1/signals?limit=101', { key });
    expect(tooBig.status).toBe(400);
  });

  it('pauses (PATCH) and stops (POST /stop): the scheduled probe job is removed, history kept; resuming schedules it again', async () => {
    expect(await scheduledJob('stock.test')).not.toBeNull();
    const paused = await h.request('PATCH', '/v1/signals/stock.test', {
      key,
      body: { status: 'paused' },
    });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({
      status: 'paused',
      nextProbeAt: null,
      probe: { progress: { status: 'done' } },
    });
    expect(await scheduledJob('stock.test')).toBeNull();

    const resumed = await h.request('PATCH', `/v1/signals/${LEGACY_ID}`, {
      key,
      body: { status: 'tracked' },
    });
    expect(resumed.body.status).toBe('tracked');
    const lastProbe = new Date(resumed.body.lastProbeAt).getTime();
    expect(new Date(resumed.body.nextProbeAt).getTime()).toBe(lastProbe + 360 * 60_000);
    expect((await scheduledJob('stock.test'))?.run_at.getTime()).toBe(lastProbe + 360 * 60_000);

    const stopped = await h.request('POST', '/v1/signals/stock.test/stop', { key });
    expect(stopped.status).toBe(200);
    expect(stopped.body.status).toBe('paused');
    expect(await scheduledJob('stock.test')).toBeNull();
    const { rows } = await h.services.db.pool.query(
      'SELECT count(*)::int AS n FROM inventory_snapshots',
    );
    expect(rows[0].n).toBe(3);
    await h.request('PATCH', '/v1/signals/stock.test', { key, body: { status: 'tracked' } });
  });

  it('rejects a bad status or unknown product handles without changing anything', async () => {
    const badStatus = await h.request('PATCH', '/v1/signals/stock.test', {
      key,
      body: { status: 'removed' },
    });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error.details.parameter).toBe('status');
    const unknown = await h.request('PATCH', '/v1/signals/stock.test', {
      key,
      body: { products: ['cap', 'ghost'] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toMatchObject({ parameter: 'products' });
    expect(unknown.body.error.details.rule).toContain('ghost');
    const watch = await h.request('GET', '/v1/signals/stock.test', { key });
    expect(watch.body.trackedVariants.filter((v: any) => v.active)).toHaveLength(3);
  });

  it('swaps the tracked products: left-out variants become inactive, a new product is read at the next probe', async () => {
    const swapped = await h.request('PATCH', '/v1/signals/stock.test', {
      key,
      body: { products: ['cap', 'mug'] },
    });
    expect(swapped.status).toBe(200);
    expect(
      swapped.body.trackedVariants.map((v: any) => [v.productHandle, v.variantId, v.active]),
    ).toEqual([
      ['cap', null, true],
      ['mug', '201', true],
      ['tee', '101', false],
      ['tee', '102', false],
    ]);
    const probe = await h.request('POST', '/v1/signals/stock.test/probe', { key });
    expect(probe.status).toBe(202);
    expect(probe.body).toMatchObject({ kind: 'manual', progress: { status: 'queued' } });
    expect(await h.waitForProbe('stock.test', key)).toMatchObject({
      kind: 'manual',
      progress: { status: 'done', snapshots: 2 },
    });
    const watch = await h.request('GET', '/v1/signals/stock.test', { key });
    expect(watch.body.trackedVariants.filter((v: any) => v.active).map((v: any) => v.sku)).toEqual([
      'CAP',
      'MUG',
    ]);
  });

  it('runs a scheduled probe when its job falls due, and queues the next one an interval later', async () => {
    await h.services.db.pool.query(
      `UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = (SELECT 'signal-schedule:' || id FROM signals LIMIT 1)`,
    );
    const deadline = Date.now() + 20_000;
    let probe;
    do {
      await new Promise((resolve) => setTimeout(resolve, 100));
      probe = (await h.request('GET', '/v1/signals/stock.test/probe', { key })).body;
    } while (
      (probe.kind !== 'scheduled' || probe.progress.status !== 'done') &&
      Date.now() < deadline
    );
    expect(probe).toMatchObject({
      domain: 'stock.test',
      kind: 'scheduled',
      progress: { status: 'done', snapshots: 2 },
    });
    expect(probe).not.toHaveProperty('probe');
    const next = await scheduledJob('stock.test');
    expect(next?.run_at.getTime()).toBe(h.clock.now().getTime() + 360 * 60_000);
  });

  it('fails a probe whose storefront cannot be reached, with the reason, and writes no snapshot', async () => {
    await h.addStore('down.test', [
      { handle: 'thing', title: 'Thing', price: 5, bestSellerRank: 1 },
    ]);
    expect(
      (await h.request('POST', '/v1/signals', { key, body: { domain: 'down.test' } })).status,
    ).toBe(201);
    const probe = await h.waitForProbe('down.test', key);
    expect(probe.progress).toEqual({ status: 'failed', snapshots: 0 });
    expect(probe.error).toContain('down.test');
    const watch = await h.request('GET', '/v1/signals/down.test', { key });
    expect(watch.body).toMatchObject({ status: 'tracked', lastProbeAt: null });
    expect(watch.body.trackedVariants).toEqual([
      { productHandle: 'thing', variantId: null, sku: null, title: 'Thing', active: true },
    ]);
    await h.request('DELETE', '/v1/signals/down.test', { key });
  });

  it('deletes the watch with its probes, snapshots and insights; the store stays in the catalog', async () => {
    const deleted = await h.request('DELETE', '/v1/signals/stock.test', { key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ domain: 'stock.test', deleted: true });
    expect((await h.request('GET', '/v1/signals/stock.test', { key })).status).toBe(404);
    expect((await h.request('DELETE', '/v1/signals/stock.test', { key })).status).toBe(404);
    const pool = h.services.db.pool;
    const count = async (table: string) =>
      (await pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
    expect([
      await count('signals'),
      await count('signal_probes'),
      await count('tracked_variants'),
      await count('inventory_snapshots'),
    ]).toEqual([0, 0, 0, 0]);
    expect(await count("stores WHERE domain = 'stock.test'")).toBe(1);
    expect(await count('products')).toBeGreaterThanOrEqual(3);
    expect(await scheduledJob('stock.test')).toBeNull();
    // and it can be watched again from scratch
    expect(
      (await h.request('POST', '/v1/signals', { key, body: { domain: 'stock.test' } })).status,
    ).toBe(201);
  });
});
