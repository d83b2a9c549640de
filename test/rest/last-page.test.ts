// Every list route of the route table: a last page that is exactly full (count === limit, nothing
// after it) says hasMore false, and the page before it says true. A list whose hasMore came from
// "the page is full" rather than from what follows fails here. Catalog lists run on the catalog
// fixture; the Signals lists on watches of fixture stores with ads, changes, snapshots and
// insights inserted as rows for one account, and that account's alerts and matches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogRoutes } from '../../rest/routes/index.ts';
import { bearer, mintKey, startAccessServer, type AccessServer } from '../access/access-server.ts';
import { loadCatalogFixture } from '../support/catalog-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { openRestApp, type RestApp } from './support/rest-app.ts';

/** One request per catalog list route (by operationId) that answers at least three items on the fixture. */
const CATALOG_LISTS: Record<string, string[]> = {
  searchStores: ['/v1/stores', '/v1/stores?groupBy=country&groupBy2=vertical'],
  listStoreProducts: ['/v1/stores/acme-apparel.com/products'],
  listStoreHistory: ['/v1/stores/acme-apparel.com/history'],
  getStoreTraffic: ['/v1/stores/acme-apparel.com/traffic'],
  listStoreApps: ['/v1/stores/acme-apparel.com/apps'],
  searchProducts: ['/v1/products?priceMin=0'],
  listProductChanges: ['/v1/products/changes'],
  listChanges: ['/v1/changes'],
  listVerticalStats: ['/v1/analytics/verticals'],
  listCountryStats: ['/v1/analytics/countries'],
  listMovers: ['/v1/analytics/movers?metric=visits&direction=up'],
  listAppRanking: ['/v1/analytics/apps?category=Email%20marketing'],
  searchApps: ['/v1/apps'],
  listAppStores: ['/v1/apps/klaviyo/stores'],
};

const WATCHED = 'acme-apparel.com';
/** The Signals lists checked here, on three watches of catalog fixture stores and three ads of the first. */
const SIGNAL_LISTS: Record<string, string[]> = {
  listSignals: ['/v1/signals'],
  listSignalAds: [`/v1/signals/${WATCHED}/ads`],
  listSignalApps: [`/v1/signals/${WATCHED}/apps`],
  listSignalAppChanges: [`/v1/signals/${WATCHED}/apps/changes`],
  listSignalProductChanges: [`/v1/signals/${WATCHED}/products/changes`],
  getSignalSales: [`/v1/signals/${WATCHED}/sales`],
  getSignalInventory: [`/v1/signals/${WATCHED}/inventory`],
  listSignalInsights: [`/v1/signals/${WATCHED}/insights`],
  listInsightInbox: ['/v1/signals/insights'],
  // the same account's alerts, three of them, the first with three matches
  listAlerts: ['/v1/alerts'],
  listAlertMatches: ['/v1/alerts/1/matches'],
};

type Get = (url: string) => Promise<{ status: number; body: any; text: string }>;

async function expectExactlyFullLastPage(get: Get, path: string) {
  const join = path.includes('?') ? '&' : '?';
  const all = await get(`${path}${join}limit=100`);
  expect(all.status, all.text).toBe(200);
  const total = all.body.data.length as number;
  expect(total, `${path} needs at least three items`).toBeGreaterThanOrEqual(3);
  expect(all.body.page).toMatchObject({ total, hasMore: false });

  const last = await get(`${path}${join}limit=2&offset=${total - 2}`);
  expect(last.body.page, path).toEqual({
    limit: 2,
    offset: total - 2,
    count: 2,
    hasMore: false,
    total,
  });
  expect(last.body.data).toEqual(all.body.data.slice(total - 2));

  const beforeLast = await get(`${path}${join}limit=2&offset=${total - 3}`);
  expect(beforeLast.body.page, path).toEqual({
    limit: 2,
    offset: total - 3,
    count: 2,
    hasMore: true,
    total,
  });
}

it('names a request for every list route of the route table', () => {
  const lists = catalogRoutes
    .filter((route) => route.method === 'GET' && 'limit' in route.query.shape)
    .map((route) => route.operationId);
  expect([...Object.keys(CATALOG_LISTS), ...Object.keys(SIGNAL_LISTS)].sort()).toEqual(
    lists.sort(),
  );
});

describe('hasMore on an exactly full last page of a catalog list', () => {
  let rest: RestApp;
  beforeAll(async () => {
    rest = await openRestApp({ fixture: true });
    // the fixture has one app per category: two more make the category ranking a list of three
    await rest.services.db.pool.query(
      `INSERT INTO apps (slug, name, category) VALUES ('last-page-mail-a', 'Mail A', 'Email marketing'),
         ('last-page-mail-b', 'Mail B', 'Email marketing')`,
    );
  });
  afterAll(async () => {
    await rest?.close();
  });

  it.each(Object.values(CATALOG_LISTS).flat())('%s', (path) =>
    expectExactlyFullLastPage(rest.get, path),
  );
});

describe('hasMore on an exactly full last page of a Signals list', () => {
  let db: TestDatabase;
  let server: AccessServer;
  let key: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url);
    key = await mintKey(server, { accountExternalId: 'last-page-reader', plan: 'pro' });
    const pool = server.services.db.pool;
    await loadCatalogFixture(pool, server.services.legacy);
    for (const domain of [WATCHED, 'glow-skin.com', 'berlin-boots.de']) {
      await pool.query(
        `INSERT INTO signals (account_id, store_id, created_at, updated_at)
         SELECT a.id, s.id, now() - interval '10 days', now() FROM accounts a, stores s WHERE a.external_id = 'last-page-reader' AND s.domain = $1`,
        [domain],
      );
    }
    // two more app changes beside the fixture's one, and three product changes since the watch began
    await pool.query(
      `INSERT INTO change_records (store_id, entity, change_type, subject, summary, detected_at)
       SELECT s.id, x.entity, x.change_type, x.subject, x.subject, now() - make_interval(mins => x.minutes)
         FROM stores s, (VALUES ('app', 'app_installed', 'gorgias', 30), ('app', 'app_uninstalled', 'judgeme', 25),
                                ('product', 'new_sku', 'first-new', 20), ('product', 'new_sku', 'second-new', 15),
                                ('product', 'removed_sku', 'gone', 10)) x (entity, change_type, subject, minutes)
        WHERE s.domain = $1`,
      [WATCHED],
    );
    // three tracked variants with a snapshot a day for five days (one probe a day), and three insights
    const [watch] = (
      await pool.query<{ id: number; account_id: number }>(
        'SELECT w.id, w.account_id FROM signals w JOIN stores s ON s.id = w.store_id WHERE s.domain = $1',
        [WATCHED],
      )
    ).rows;
    await pool.query(
      `INSERT INTO tracked_variants (signal_id, product_handle, variant_id, title)
       SELECT $1, 'classic-hoodie', 'v-' || i, 'Hoodie / ' || i FROM generate_series(1, 3) i`,
      [watch!.id],
    );
    for (let daysAgo = 5; daysAgo >= 0; daysAgo--) {
      await pool.query(
        `WITH probe AS (
           INSERT INTO signal_probes (signal_id, kind, status, created_at, started_at, finished_at)
           VALUES ($1, 'scheduled', 'done', now() - make_interval(days => $2, hours => 1), now() - make_interval(days => $2, hours => 1),
                   now() - make_interval(days => $2, hours => 1))
           RETURNING id, created_at)
         INSERT INTO inventory_snapshots (tracked_variant_id, probe_id, taken_at, stock, price, available)
         SELECT v.id, probe.id, probe.created_at, 100 - 3 * (5 - $2), 20, true FROM tracked_variants v, probe WHERE v.signal_id = $1`,
        [watch!.id, daysAgo],
      );
    }
    await pool.query(
      `INSERT INTO insights (signal_id, account_id, kind, title, body, created_at)
       SELECT $1, $2, 'restock', 'Insight ' || i, 'b', now() - make_interval(mins => i) FROM generate_series(1, 3) i`,
      [watch!.id, watch!.account_id],
    );
    await pool.query(
      `INSERT INTO alerts (account_id, name, filter, created_at)
       SELECT a.id, 'alert ' || i, '{"vertical":"Apparel"}', now() - make_interval(mins => i)
         FROM accounts a, generate_series(1, 3) i WHERE a.external_id = 'last-page-reader' ORDER BY i`,
    );
    await pool.query(
      `INSERT INTO alert_matches (alert_id, store_id, matched_at)
       SELECT 1, s.id, now() - make_interval(mins => s.id) FROM stores s ORDER BY s.id LIMIT 3`,
    );
    for (const [i, network] of ['meta', 'tiktok', 'google'].entries()) {
      await pool.query(
        `INSERT INTO ads (store_id, network, external_id, headline, first_seen_at, last_seen_at, active)
         SELECT id, $2, $3, $3, now() - make_interval(days => $4), now(), true FROM stores WHERE domain = $1`,
        [WATCHED, network, `ad-${i}`, 10 + i],
      );
    }
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const get: Get = async (url) => {
    const res = await server.app.inject({ method: 'GET', url, headers: bearer(key) });
    return { status: res.statusCode, body: res.json(), text: res.body };
  };

  it.each(Object.values(SIGNAL_LISTS).flat())('%s', (path) => expectExactlyFullLastPage(get, path));
});
