// App and product changes of a watched store: the observer a probe runs reads the fixture storefront
// changing.test twice (version 1, then version 2 with new prices, products, apps and theme), writes
// the catalog and the change records, and gives each tracked watch of the store an app_change
// insight per app installed or removed. The three routes show them to the watch's own account only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WatchRecord } from '../../src/signals/watch-record.ts';
import { mintKey } from '../access/access-server.ts';
import { startChangesServer, type Account, type ChangesServer } from './support/changes-server.ts';

const DOMAIN = 'changing.test';
const LEGACY_ID = 'a1b2c3d4e5f60718293a4b5c';
const START = new Date('2026-03-02T08:00:00.000Z');
const HOUR = 3_600_000;

interface Insight {
  signal_id: number;
  account_id: number;
  kind: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
}

describe('app and product changes of a watched store', () => {
  let t: ChangesServer;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let dave: Account;
  let mallory: Account;
  let aliceWatch: WatchRecord;
  let bobWatch: WatchRecord;
  let carolWatch: WatchRecord;
  let daveWatch: WatchRecord;
  let firstResult: { appChanges: number; productChanges: number };
  let secondResult: { appChanges: number; productChanges: number };
  let secondObservedAt: Date;

  const insightsOf = async (watch: WatchRecord) =>
    (
      await t.server.services.db.pool.query<Insight>(
        'SELECT signal_id, account_id, kind, title, body, data FROM insights WHERE signal_id = $1 ORDER BY id',
        [watch.id],
      )
    ).rows;

  beforeAll(async () => {
    t = await startChangesServer(START);
    alice = await t.account('alice');
    bob = await t.account('bob');
    carol = await t.account('carol');
    dave = await t.account('dave');
    mallory = await t.account('mallory');
    await t.addStore(DOMAIN, LEGACY_ID);
    aliceWatch = await t.watch(alice, DOMAIN);
    bobWatch = await t.watch(bob, DOMAIN);
    carolWatch = await t.watch(carol, DOMAIN, 'paused');

    t.advance(HOUR);
    firstResult = await t.observe(aliceWatch);
    t.storefronts.setVersion(DOMAIN, 2);
    t.advance(HOUR);
    secondObservedAt = t.now();
    secondResult = await t.observe(bobWatch);
    // a watch created after both observations: its product changes start later
    t.advance(HOUR);
    daveWatch = await t.watch(dave, DOMAIN);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it("takes a never-observed store's first observation as its baseline: catalog written, no changes, no insights", async () => {
    expect(firstResult).toEqual({ appChanges: 0, productChanges: 0 });
    const pool = t.server.services.db.pool;
    const { rows: changes } = await pool.query(
      'SELECT 1 FROM change_records c JOIN stores s ON s.id = c.store_id WHERE s.domain = $1 AND c.detected_at < $2',
      [DOMAIN, secondObservedAt],
    );
    expect(changes).toEqual([]);
  });

  it('records the installed and the removed app, the price drop, the new and the removed SKU', async () => {
    expect(secondResult).toEqual({ appChanges: 2, productChanges: 3 });
    const { rows } = await t.server.services.db.pool.query(
      `SELECT entity, change_type AS "changeType", subject, old_value AS "oldValue", new_value AS "newValue", change_pct AS "changePct", detected_at AS "detectedAt"
         FROM change_records c JOIN stores s ON s.id = c.store_id WHERE s.domain = $1 ORDER BY entity, change_type, subject`,
      [DOMAIN],
    );
    const at = secondObservedAt;
    expect(rows).toEqual([
      {
        entity: 'app',
        changeType: 'app_installed',
        subject: 'klaviyo-email-marketing',
        oldValue: null,
        newValue: 'klaviyo-email-marketing',
        changePct: null,
        detectedAt: at,
      },
      {
        entity: 'app',
        changeType: 'app_uninstalled',
        subject: 'judgeme',
        oldValue: 'judgeme',
        newValue: null,
        changePct: null,
        detectedAt: at,
      },
      {
        entity: 'product',
        changeType: 'new_sku',
        subject: 'vase',
        oldValue: null,
        newValue: '30.00',
        changePct: null,
        detectedAt: at,
      },
      {
        entity: 'product',
        changeType: 'price_decrease',
        subject: 'mug',
        oldValue: '20.00',
        newValue: '16.00',
        changePct: -20,
        detectedAt: at,
      },
      {
        entity: 'product',
        changeType: 'removed_sku',
        subject: 'bowl',
        oldValue: '15.00',
        newValue: null,
        changePct: null,
        detectedAt: at,
      },
      {
        entity: 'store',
        changeType: 'theme_changed',
        subject: null,
        oldValue: 'Dawn',
        newValue: 'Sense',
        changePct: null,
        detectedAt: at,
      },
    ]);
  });

  it('leaves the catalog as the storefront now is: its products and its app stack', async () => {
    const pool = t.server.services.db.pool;
    const { rows: products } = await pool.query(
      'SELECT handle, price::float AS price FROM products p JOIN stores s ON s.id = p.store_id WHERE s.domain = $1 ORDER BY handle',
      [DOMAIN],
    );
    expect(products).toEqual([
      { handle: 'mug', price: 16 },
      { handle: 'plate', price: 12 },
      { handle: 'vase', price: 30 },
    ]);
    const {
      rows: [store],
    } = await pool.query(
      'SELECT product_count, app_count, theme_name FROM stores WHERE domain = $1',
      [DOMAIN],
    );
    expect(store).toEqual({ product_count: 3, app_count: 1, theme_name: 'Sense' });
  });

  it('gives each tracked watch of the store, whatever its account, one app_change insight per app change', async () => {
    for (const [watch, account] of [
      [aliceWatch, alice],
      [bobWatch, bob],
    ] as const) {
      const insights = await insightsOf(watch);
      expect(
        insights.map((i) => [i.kind, i.account_id, i.data.changeType, i.data.appSlug]),
      ).toEqual([
        ['app_change', account.id, 'app_installed', 'klaviyo-email-marketing'],
        ['app_change', account.id, 'app_uninstalled', 'judgeme'],
      ]);
      expect(insights[0]).toMatchObject({
        title: 'changing.test installed Klaviyo: Email Marketing & SMS',
        data: {
          domain: DOMAIN,
          appName: 'Klaviyo: Email Marketing & SMS',
          detectedAt: secondObservedAt.toISOString(),
        },
      });
      expect(insights[1]!.title).toBe('changing.test removed Judge.me Product Reviews');
    }
    // a paused watch is not probed and collects nothing; a watch created later missed the change
    expect(await insightsOf(carolWatch)).toEqual([]);
    expect(await insightsOf(daveWatch)).toEqual([]);
    // price changes are the probe's price_change insights, never duplicated here
    const { rows } = await t.server.services.db.pool.query(
      "SELECT count(*)::int AS n FROM insights WHERE kind <> 'app_change'",
    );
    expect(rows[0].n).toBe(0);
  });

  it("GET /apps lists the store's apps as last observed, with when each was first and last seen", async () => {
    const { status, body } = await t.get(`/v1/signals/${DOMAIN}/apps`, alice.key);
    expect(status).toBe(200);
    expect(body.page).toEqual({ limit: 20, offset: 0, count: 1, hasMore: false, total: 1 });
    expect(body.data).toEqual([
      expect.objectContaining({
        slug: 'klaviyo-email-marketing',
        name: 'Klaviyo: Email Marketing & SMS',
        firstSeenAt: secondObservedAt.toISOString(),
        lastSeenAt: secondObservedAt.toISOString(),
        installCount: 1,
      }),
    ]);
    // paged with limit and offset like every list (spec part 4)
    const past = await t.get(`/v1/signals/${DOMAIN}/apps?limit=1&offset=1`, alice.key);
    expect(past.body).toEqual({
      data: [],
      page: { limit: 1, offset: 1, count: 0, hasMore: false, total: 1 },
    });
  });

  it('GET /apps/changes gives the install and uninstall history, newest first, paginated', async () => {
    const { status, body } = await t.get(`/v1/signals/${DOMAIN}/apps/changes`, bob.key);
    expect(status).toBe(200);
    expect(body.page).toEqual({ limit: 20, offset: 0, count: 2, hasMore: false, total: 2 });
    expect(
      body.data.map((c: any) => [c.entity, c.changeType, c.subject, c.domain, c.detectedAt]),
    ).toEqual([
      ['app', 'app_uninstalled', 'judgeme', DOMAIN, secondObservedAt.toISOString()],
      ['app', 'app_installed', 'klaviyo-email-marketing', DOMAIN, secondObservedAt.toISOString()],
    ]);
    const second = await t.get(`/v1/signals/${DOMAIN}/apps/changes?limit=1&offset=1`, bob.key);
    expect(second.body.page).toEqual({ limit: 1, offset: 1, count: 1, hasMore: false, total: 2 });
    expect(second.body.data[0].subject).toBe('klaviyo-email-marketing');
    // the store's history, from before the watch too
    expect((await t.get(`/v1/signals/${DOMAIN}/apps/changes`, dave.key)).body.page.total).toBe(2);
  });

  it('GET /products/changes gives the price, new and removed SKUs since the watch was created, filterable', async () => {
    const { status, body } = await t.get(`/v1/signals/${DOMAIN}/products/changes`, alice.key);
    expect(status).toBe(200);
    expect(body.meta).toEqual({ watchedSince: aliceWatch.createdAt.toISOString() });
    expect(body.page).toEqual({ limit: 20, offset: 0, count: 3, hasMore: false, total: 3 });
    expect(body.data.map((c: any) => [c.changeType, c.subject]).sort()).toEqual([
      ['new_sku', 'vase'],
      ['price_decrease', 'mug'],
      ['removed_sku', 'bowl'],
    ]);

    const drops = await t.get(
      `/v1/signals/${DOMAIN}/products/changes?changeType=price_decrease`,
      alice.key,
    );
    expect(drops.body.data).toEqual([
      expect.objectContaining({
        entity: 'product',
        changeType: 'price_decrease',
        subject: 'mug',
        oldValue: '20.00',
        newValue: '16.00',
        changePct: -20,
      }),
    ]);
    const page = await t.get(`/v1/signals/${DOMAIN}/products/changes?limit=2`, alice.key);
    expect(page.body.page).toEqual({ limit: 2, offset: 0, count: 2, hasMore: true, total: 3 });

    // dave's watch began after the changes: nothing on it yet, and it says from when
    const later = await t.get(`/v1/signals/${DOMAIN}/products/changes`, dave.key);
    expect(later.body).toEqual({
      data: [],
      page: { limit: 20, offset: 0, count: 0, hasMore: false, total: 0 },
      meta: { watchedSince: daveWatch.createdAt.toISOString() },
    });
  });

  it("accepts the store's URL or legacy id for {domain}", async () => {
    const byUrl = await t.get(
      `/v1/signals/${encodeURIComponent('https://www.changing.test/')}/apps/changes`,
      alice.key,
    );
    const byLegacyId = await t.get(`/v1/signals/${LEGACY_ID}/products/changes`, alice.key);
    expect(byUrl.body.page.total).toBe(2);
    expect(byLegacyId.body.page.total).toBe(3);
  });

  it('is not_found for an account without a watch on the store, on every route', async () => {
    for (const path of ['apps', 'apps/changes', 'products/changes']) {
      const { status, body } = await t.get(`/v1/signals/${DOMAIN}/${path}`, mallory.key);
      expect(status, path).toBe(404);
      expect(body.error.code, path).toBe('not_found');
    }
  });

  it('lets a partner key (signals:read) read a store already on Signals', async () => {
    const partner = await mintKey(t.server, {
      accountExternalId: 'partner',
      scopes: ['signals:read'],
    });
    const { status, body } = await t.get(`/v1/signals/${DOMAIN}/apps/changes`, partner);
    expect(status).toBe(200);
    expect(body.page.total).toBe(2);
  });

  it('refuses an unknown changeType with bad_request naming it', async () => {
    const { status, body } = await t.get(
      `/v1/signals/${DOMAIN}/products/changes?changeType=app_installed`,
      alice.key,
    );
    expect(status).toBe(400);
    expect(body.error.code).toBe('bad_request');
    expect(JSON.stringify(body.error.details)).toContain('changeType');
  });

  it('counts no changes and keeps the catalog when the storefront cannot be read', async () => {
    const pool = t.server.services.db.pool;
    const before = (await pool.query('SELECT count(*)::int AS n FROM change_records')).rows[0].n;
    // notshop.test answers a plain website, not a Shopify storefront
    const result = await t.observe({ ...aliceWatch, domain: 'notshop.test' });
    expect(result).toEqual({ appChanges: 0, productChanges: 0 });
    expect((await pool.query('SELECT count(*)::int AS n FROM change_records')).rows[0].n).toBe(
      before,
    );
    expect(
      (
        await pool.query('SELECT count(*)::int AS n FROM products WHERE store_id = $1', [
          aliceWatch.storeId,
        ])
      ).rows[0].n,
    ).toBe(3);
  });
});
