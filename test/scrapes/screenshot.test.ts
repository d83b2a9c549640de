// A scrape photographs the storefront homepage in headless Chromium when one is installed, keeps the
// image in the database and serves it at GET /v1/stores/{domain}/screenshot. Chromium is no way
// around the egress rules: a page asking for another host (a loopback address, or a host that
// EGRESS_OVERRIDES opens to the scraper) never reaches it. Without a Chromium the scrape still ends done.
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.ts';
import { startScrapeHarness, type ScrapeHarness } from './support/scrape-harness.ts';
import { skipWithout } from '../support/skip-without.ts';

const CHROMIUM = '/usr/bin/chromium';
const STORE = 'pictured.test';

interface CountingServer {
  port: number;
  hits: string[];
  close(): Promise<void>;
}

async function listen(
  handler: (path: string, res: http.ServerResponse) => void,
): Promise<CountingServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '/');
    handler(req.url ?? '/', res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A Shopify-like storefront whose homepage shows its own logo and two images from elsewhere. */
async function startPicturedStore(elsewherePort: number): Promise<CountingServer> {
  const homepage = `<!doctype html><html><head><title>Pictured</title>
<script>Shopify.shop = "pictured.myshopify.com";</script></head>
<body style="background:#3366cc"><div class="shopify-section"><h1>Pictured</h1>
<img src="/logo.png" width="200" height="100">
<img src="http://127.0.0.1:${elsewherePort}/direct.png">
<img src="https://elsewhere.test/through-override.png">
</div></body></html>`;
  const products = {
    products: [
      {
        id: 1,
        title: 'Poster',
        handle: 'poster',
        vendor: 'P',
        product_type: 'Art',
        published_at: '2026-01-01T00:00:00Z',
        variants: [{ price: '10.00', compare_at_price: null, available: true }],
        images: [],
      },
    ],
  };
  return listen((path, res) => {
    if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(homepage);
    if (path === '/logo.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
    if (path === '/meta.json')
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ name: 'Pictured' }));
    if (path.startsWith('/products.json'))
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(products));
    res.writeHead(404).end();
  });
}

async function scrapeWith(
  env: Record<string, string>,
): Promise<{ harness: ScrapeHarness; logs: Array<Record<string, unknown>> }> {
  const harness = await startScrapeHarness({
    env: { EGRESS_TIMEOUT_MS: '15000', ...env },
    worker: false,
  });
  const logs: Array<Record<string, unknown>> = [];
  harness.services.logger = createLogger(
    'info',
    new Writable({
      write(chunk, _encoding, done) {
        logs.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  await harness.startWorker();
  const { body } = await harness.post('/v1/scrapes', { domain: STORE });
  const ended = await harness.waitFor(body.id, ['done', 'failed'], 60_000);
  expect(ended).toMatchObject({ status: 'done' });
  return { harness, logs };
}

let elsewhere: CountingServer;
let store: CountingServer;
let overrides: string;

beforeAll(async () => {
  elsewhere = await listen((_path, res) =>
    res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL),
  );
  store = await startPicturedStore(elsewhere.port);
  overrides = `${STORE}=http://127.0.0.1:${store.port},elsewhere.test=http://127.0.0.1:${elsewhere.port}`;
});
afterAll(async () => {
  await store?.close();
  await elsewhere?.close();
});

describe.skipIf(skipWithout(existsSync(CHROMIUM)))(
  'a scrape with Chromium (needs /usr/bin/chromium)',
  () => {
    let harness: ScrapeHarness;
    beforeAll(async () => {
      ({ harness } = await scrapeWith({
        EGRESS_OVERRIDES: overrides,
        CHROMIUM_PATH: CHROMIUM,
        PUBLIC_BASE_URL: 'https://api.example.com',
      }));
    }, 90_000);
    afterAll(() => harness?.close());

    it('stores a homepage screenshot and serves it as an image', async () => {
      const response = await harness.app.inject({
        method: 'GET',
        url: `/v1/stores/${STORE}/screenshot`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^image\/(jpeg|webp)/);
      expect(response.rawPayload.length).toBeGreaterThan(1_000);
      expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff])); // a JPEG
    });

    it('points the legacy summary at the service’s own screenshot URL', async () => {
      const summary = (await harness.services.legacy.findByDomains([STORE])).get(STORE);
      expect(summary?.screenshotUrl).toBe(`https://api.example.com/v1/stores/${STORE}/screenshot`);
    });

    it('lets the browser load the storefront’s own assets through egress, and nothing from another host', () => {
      expect(store.hits).toContain('/logo.png');
      expect(elsewhere.hits).toEqual([]);
    });

    it('answers 404 with the error envelope for a store without a screenshot', async () => {
      const response = await harness.app.inject({
        method: 'GET',
        url: '/v1/stores/unknown-store.test/screenshot',
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        error: { code: 'not_found', details: { domain: 'unknown-store.test' } },
      });
    });
  },
);

describe('a scrape without Chromium', () => {
  let harness: ScrapeHarness;
  let logs: Array<Record<string, unknown>>;
  beforeAll(async () => {
    ({ harness, logs } = await scrapeWith({
      EGRESS_OVERRIDES: overrides,
      CHROMIUM_PATH: '/nonexistent/chromium',
    }));
  }, 60_000);
  afterAll(() => harness?.close());

  it('ends done, logs why there is no screenshot, and serves none', async () => {
    expect(logs.filter((line) => line.msg === 'scrape without a screenshot')).toEqual([
      expect.objectContaining({
        domain: STORE,
        reason: 'no Chromium at CHROMIUM_PATH /nonexistent/chromium',
      }),
    ]);
    expect((await harness.get(`/v1/stores/${STORE}`)).status).toBe(200);
    expect(
      (await harness.app.inject({ method: 'GET', url: `/v1/stores/${STORE}/screenshot` }))
        .statusCode,
    ).toBe(404);
    expect(
      (await harness.services.legacy.findByDomains([STORE])).get(STORE)?.screenshotUrl ?? null,
    ).toBeNull();
  });
});
