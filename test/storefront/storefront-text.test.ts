// Storefront text the database cannot keep as sent: a NUL byte (PostgreSQL text refuses it) and a
// lone UTF-16 surrogate (jsonb refuses its \ud800 escape), in the homepage, meta.json, products and
// the theme. A scrape of such a store completes with the text cleaned, and a discovery candidate
// serving it is accepted, not left retrying.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCatalogHarness, type CatalogHarness } from '../crawler/support/catalog-harness.ts';

const NUL = '\u0000';
const LONE_HIGH = '\ud83d';
const LONE_LOW = '\udc00';

function dirtyStorefront(): http.Server {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    const shop = (req.headers.host ?? '').split(':')[0]!.replace(/\./g, '-');
    const json = (body: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/') {
      // a raw NUL byte in the title, and escapes in the theme's JSON as Shopify writes it
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!doctype html><html><head><title>Dirty${NUL} Shop</title><script>var Shopify = Shopify || {};
Shopify.shop = "${shop}.myshopify.com"; Shopify.theme = {"name":"Da\\u0000wn \\ud800","id":1,"role":"main"};
Shopify.currency = {"active":"USD","rate":"1.0"}; Shopify.country = "US";</script></head>
<body><div class="shopify-section">Hello${NUL}<a href="mailto:hi@dirty.test">mail</a></div></body></html>`,
      );
    } else if (url.pathname === '/meta.json') {
      json({
        name: `Dirty${NUL} Shop ${LONE_HIGH}`,
        description: `Cups${NUL} and mugs ${LONE_LOW}`,
        country: 'US',
        currency: 'USD',
      });
    } else if (url.pathname === '/products.json' && (url.searchParams.get('page') ?? '1') === '1') {
      const product = (handle: string, title: string, vendor: string) => ({
        handle,
        title,
        vendor,
        product_type: `Kitchen${NUL}`,
        published_at: '2026-01-01T00:00:00Z',
        variants: [{ price: '12.00', compare_at_price: null, available: true }],
        images: [],
      });
      json({
        products: [
          product('mug', `Mug${NUL} large`, `Potter${NUL}`),
          product('cup', `Cup ${LONE_HIGH}`, `Potter ${LONE_LOW}`),
        ],
      });
    } else if (url.pathname === '/products.json') {
      json({ products: [] });
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":"Not Found"}');
    }
  });
}

let server: http.Server;
let h: CatalogHarness;

beforeAll(async () => {
  server = dirtyStorefront();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  h = await startCatalogHarness({
    env: {
      EGRESS_OVERRIDES: `dirty.test=http://127.0.0.1:${port},dirty-found.test=http://127.0.0.1:${port}`,
    },
  });
}, 60_000);
afterAll(async () => {
  await h?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

describe('storefront text the database cannot keep as sent', () => {
  it('scrapes the store, its text cleaned: NUL dropped, a lone surrogate replaced with U+FFFD', async () => {
    const queued = await h.post('/v1/scrapes', { domain: 'dirty.test' });
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    const ended = await h.waitFor(queued.body.id, ['done', 'failed'], 30_000);
    expect(ended.status, ended.failureReason).toBe('done');

    const {
      rows: [store],
    } = await h.pool.query('SELECT name, theme_name FROM stores WHERE domain = $1', ['dirty.test']);
    expect(store).toEqual({ name: 'Dirty Shop \ufffd', theme_name: 'Dawn \ufffd' });
    const { rows: products } = await h.pool.query(
      'SELECT handle, title, vendor, product_type FROM products p JOIN stores s ON s.id = p.store_id WHERE s.domain = $1 ORDER BY handle',
      ['dirty.test'],
    );
    expect(products).toEqual([
      { handle: 'cup', title: 'Cup \ufffd', vendor: 'Potter \ufffd', product_type: 'Kitchen' },
      { handle: 'mug', title: 'Mug large', vendor: 'Potter', product_type: 'Kitchen' },
    ]);
    const profile = await h.get('/v1/stores/dirty.test');
    expect(profile.status).toBe(200);
    expect(profile.body.name).toBe('Dirty Shop \ufffd');
  });

  it('accepts a discovery candidate serving such text, not leaving it to retry', async () => {
    await h.offer(['dirty-found.test']);
    const candidate = await h.waitForRow<{ status: string; reason: string | null }>(
      `SELECT status::text, reason FROM catalog_candidates WHERE domain = $1 AND status NOT IN ('pending', 'queued')`,
      ['dirty-found.test'],
      30_000,
    );
    expect(candidate).toEqual({ status: 'accepted', reason: null });
    expect(await h.logOf('dirty-found.test')).toEqual([
      { trigger: 'discovery', outcome: 'ok', changes: 0 },
    ]);
  });
});
