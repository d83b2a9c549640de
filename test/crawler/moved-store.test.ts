// A catalog store that moves: its old host starts answering 301 to a new host serving the same shop
// (the same Shopify.shop). The scheduler follows it: the store keeps its id, history and apps under
// its new domain, GET /v1/stores/{old} answers the store under its new domain, a change record says
// it moved, and the new host is not taken in as a second store. A redirect to a host serving another
// shop is not followed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, startCatalogHarness, type CatalogHarness } from './support/catalog-harness.ts';

/** host -> the shop it serves, or where it redirects */
const serving: Record<string, { shop: string } | { movedTo: string }> = {
  'old-home.test': { shop: 'same-shop' },
  'new-home.test': { shop: 'same-shop' },
  'lender.test': { shop: 'lender-shop' },
  'stranger.test': { shop: 'another-shop' },
};

let server: http.Server;
let harness: CatalogHarness;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0]!;
    const url = new URL(req.url ?? '/', 'http://x');
    const site = serving[host];
    if (!site) return res.writeHead(404).end();
    if ('movedTo' in site)
      return res
        .writeHead(301, { location: `https://${site.movedTo}${url.pathname}${url.search}` })
        .end();
    if (url.pathname === '/robots.txt') return res.writeHead(404).end();
    if (url.pathname === '/') {
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<html><head><title>Same Shop</title><script>Shopify.shop = "${site.shop}.myshopify.com"; Shopify.theme = {"name":"Dawn"};</script>
<script src="https://static.klaviyo.com/onsite/js/klaviyo.js"></script></head><body></body></html>`);
    }
    if (url.pathname === '/products.json') {
      return res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          products: [{ handle: 'mug', title: 'Mug', variants: [{ price: '9.00' }] }],
        }),
      );
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  harness = await startCatalogHarness({
    env: {
      EGRESS_OVERRIDES: Object.keys(serving)
        .map((h) => `${h}=http://127.0.0.1:${port}`)
        .join(','),
    },
  });
});
afterAll(async () => {
  await harness?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const storeRow = async (id: number) =>
  (await harness.pool.query<{ domain: string }>('SELECT domain FROM stores WHERE id = $1', [id]))
    .rows[0];

describe('a store that moved to a new host serving the same shop', () => {
  it('is followed: same id, history and apps under its new domain; the old domain answers it; a change record says it moved', async () => {
    await harness.offer(['old-home.test']);
    const { id } = await harness.waitForRow<{ id: number }>(
      `SELECT id FROM stores WHERE domain = 'old-home.test'`,
    );
    const {
      rows: [before],
    } = await harness.pool.query<{ snapshots: number; apps: number }>(
      `SELECT (SELECT count(*)::int FROM store_daily_snapshots WHERE store_id = $1) AS snapshots, (SELECT count(*)::int FROM store_apps WHERE store_id = $1) AS apps`,
      [id],
    );
    expect(before!.snapshots).toBeGreaterThan(0);

    serving['old-home.test'] = { movedTo: 'new-home.test' };
    await harness.advance(8 * DAY_MS);
    await harness.waitForRow(
      `SELECT 1 AS moved FROM stores WHERE id = $1 AND domain = 'new-home.test'`,
      [id],
      30_000,
    );

    // one store, the same one
    const { rows: stores } = await harness.pool.query<{ id: number }>(`SELECT id FROM stores`);
    expect(stores.map((s) => s.id)).toEqual([id]);
    const {
      rows: [after],
    } = await harness.pool.query<{ snapshots: number; apps: number }>(
      `SELECT (SELECT count(*)::int FROM store_daily_snapshots WHERE store_id = $1) AS snapshots, (SELECT count(*)::int FROM store_apps WHERE store_id = $1) AS apps`,
      [id],
    );
    expect(after!.snapshots).toBeGreaterThanOrEqual(before!.snapshots);
    expect(after!.apps).toBe(before!.apps);

    const byNew = await harness.get('/v1/stores/new-home.test');
    expect(byNew.status).toBe(200);
    const byOld = await harness.get('/v1/stores/old-home.test');
    expect(byOld.status).toBe(200);
    expect(byOld.body.domain).toBe('new-home.test');

    const { rows: changes } = await harness.pool.query<{
      change_type: string;
      old_value: string;
      new_value: string;
    }>(
      `SELECT change_type, old_value, new_value FROM change_records WHERE store_id = $1 AND entity = 'store' AND change_type = 'domain_changed'`,
      [id],
    );
    expect(changes).toEqual([
      { change_type: 'domain_changed', old_value: 'old-home.test', new_value: 'new-home.test' },
    ]);
    const {
      rows: [schedule],
    } = await harness.pool.query<{ presence: string }>(
      `SELECT presence::text FROM observation_schedule WHERE store_id = $1`,
      [id],
    );
    expect(schedule!.presence).toBe('active');

    // observed again at its new host: the store keeps its legacy id, and its summary lives there
    const afterMove = await harness.lastLogId();
    await harness.advance(8 * DAY_MS);
    const again = await harness.nextObservation('new-home.test', afterMove);
    expect(again.outcome).toBe('ok');
    const { rows: summaries } = await harness.pool.query<{ domain: string; same: boolean }>(
      `SELECT l.domain, l.legacy_id = s.legacy_id AS same FROM legacy_store_summaries l, stores s
        WHERE s.id = $1 AND l.domain IN ('old-home.test', 'new-home.test')`,
      [id],
    );
    expect(summaries).toEqual([{ domain: 'new-home.test', same: true }]);
  }, 120_000);

  it('is not followed to a host serving another shop: the move is a failed observation, as before', async () => {
    await harness.offer(['lender.test']);
    const { id } = await harness.waitForRow<{ id: number }>(
      `SELECT id FROM stores WHERE domain = 'lender.test'`,
    );
    serving['lender.test'] = { movedTo: 'stranger.test' };
    const afterId = await harness.lastLogId();
    await harness.advance(8 * DAY_MS);
    const line = await harness.nextObservation('lender.test', afterId);
    expect(line.outcome).toBe('moved');
    expect((await storeRow(id))!.domain).toBe('lender.test');
  }, 90_000);
});
