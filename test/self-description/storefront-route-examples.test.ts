// The example request of every storefront route in docs.md (scrapes, the screenshot a scrape takes,
// Signals), read from the running server's /v1/docs.md and followed literally, each answering 2xx
// with data. They name stores the seeded catalog lacks (UNLISTED in src/seed/seeded-catalog.ts):
// fixture storefronts answer as those names (EGRESS_OVERRIDES), fake ad libraries as Meta, TikTok
// and Google. The examples are followed in the order of their story, not of docs.md: scrape the
// store (poll the scrape by the id its answer gave), bulk-scrape it with a second store, read its
// screenshot; watch it, follow the first probe, then probe it once a day for four days while the
// storefront sells stock, restocks, cuts a price and swaps an app; refresh its ads; read everything;
// pause, stop and delete the watch last. A storefront example this test does not follow fails it.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNLISTED } from '../../src/seed/seeded-catalog.ts';
import {
  startFakeAdLibraries,
  type FakeAdLibraries,
} from '../signals/support/fake-ad-libraries.ts';
import {
  startSignalsHarness,
  type Response,
  type SignalsHarness,
} from '../signals/support/signals-harness.ts';
import type { FixtureShop } from '../signals/support/stock-storefront.ts';
import { skipWithout } from '../support/skip-without.ts';
import {
  docsExamples,
  hasData,
  needsStorefront,
  type DocsExample,
} from './support/docs-examples.ts';

const CHROMIUM = '/usr/bin/chromium';
const DAY = 86_400_000;
const STORE = UNLISTED.store;
const TEE = 11;
const MUG = 21;
const JUDGEME = '<script src="https://cdn.judge.me/widget.js"></script>';
const KLAVIYO = '<script src="https://static.klaviyo.com/onsite/js/klaviyo.js"></script>';

const shops = (): Map<string, FixtureShop> =>
  new Map([
    [
      STORE,
      {
        name: 'New Brand',
        exposesStock: true,
        homepage: JUDGEME,
        products: [
          {
            handle: 'tee',
            title: 'Tee',
            variants: [
              { id: TEE, sku: 'TEE', title: 'Default Title', priceCents: 2000, stock: 50 },
            ],
          },
          {
            handle: 'mug',
            title: 'Mug',
            variants: [
              { id: MUG, sku: 'MUG', title: 'Default Title', priceCents: 1250, stock: 30 },
            ],
          },
        ],
      },
    ],
    [
      UNLISTED.otherStore,
      {
        name: 'Other Brand',
        exposesStock: true,
        products: [
          {
            handle: 'lamp',
            title: 'Lamp',
            variants: [{ id: 31, sku: 'LAMP', title: 'Default Title', priceCents: 4500, stock: 7 }],
          },
        ],
      },
    ],
  ]);

/** the route of an example: its path without the query, the story's store as {domain} */
const routeOf = (example: DocsExample) =>
  `${example.method} ${example.path.split('?')[0]!.replaceAll(STORE, '{domain}')}`;

describe.skipIf(skipWithout(existsSync(CHROMIUM)))(
  'the storefront route examples of docs.md, followed literally (needs /usr/bin/chromium)',
  () => {
    let h: SignalsHarness;
    let ads: FakeAdLibraries;
    let key: string;

    beforeAll(async () => {
      ads = await startFakeAdLibraries();
      h = await startSignalsHarness({
        shops: shops(),
        egressOverrides: ads.overrides,
        appCatalog: true,
        // a scrape photographs the homepage in Chromium, which needs more than the harness's 1.5 s
        env: { ...ads.env, CHROMIUM_PATH: CHROMIUM, EGRESS_TIMEOUT_MS: '15000' },
      });
      key = await h.mintKey();
    }, 60_000);
    afterAll(async () => {
      await h?.close();
      await ads?.close();
    });

    it('each answers 2xx with data, in the order of the story they tell', async () => {
      const docs = (await h.app.inject({ method: 'GET', url: '/v1/docs.md' })).body;
      const examples = docsExamples(docs).filter((example) => needsStorefront(example.path));
      const followed = new Set<DocsExample>();

      /** the one example of `route` ("METHOD /path", the story's store as {domain}) */
      const example = (route: string): DocsExample => {
        const found = examples.filter((e) => routeOf(e) === route);
        expect(
          found.map((e) => e.text),
          `one docs.md example of ${route}`,
        ).toHaveLength(1);
        followed.add(found[0]!);
        return found[0]!;
      };
      /** sends the example as written ({id} filled in where the route says so) */
      const send = (e: DocsExample, id?: string): Promise<Response> =>
        h.request(e.method, id ? e.path.replace('{id}', id) : e.path, { key, body: e.body });
      /** follows the example of `route`: 2xx with data */
      const follow = async (route: string, id?: string): Promise<Response> => {
        const e = example(route);
        const answer = await send(e, id);
        expect(
          [e.text, answer.status >= 200 && answer.status < 300],
          `${e.text} answers 2xx, not ${answer.status} ${JSON.stringify(answer.body)}`,
        ).toEqual([e.text, true]);
        expect(hasData(answer.body), `${e.text} answers data: ${JSON.stringify(answer.body)}`).toBe(
          true,
        );
        return answer;
      };
      /** follows the example again and again (as its route says to poll) until `done` holds */
      const pollUntil = async (
        route: string,
        done: (body: any) => boolean,
        id?: string,
      ): Promise<Response> => {
        const deadline = Date.now() + 60_000;
        for (;;) {
          const answer = await follow(route, id);
          if (done(answer.body)) return answer;
          if (Date.now() > deadline)
            throw new Error(`${route} still answers ${JSON.stringify(answer.body)}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      const ended = (body: any) => ['done', 'failed'].includes(body.status);
      const probeEnded = (body: any) => ['done', 'failed'].includes(body.progress?.status);

      // an alert first: stores that start running Klaviyo (the watched store will, on day 3)
      expect((await follow('POST /v1/alerts')).status).toBe(201);

      // scrape the store the catalog lacks; poll it by the id the answer gave
      const queued = await follow('POST /v1/scrapes');
      expect(queued.status).toBe(202);
      expect(example('GET /v1/scrapes/{id}').path).toBe('/v1/scrapes/{id}');
      expect((await pollUntil('GET /v1/scrapes/{id}', ended, queued.body.id)).body).toMatchObject({
        id: queued.body.id,
        status: 'done',
      });

      // the bulk scrape names it again (now in the catalog) and a second store
      const bulk = await follow('POST /v1/scrapes/bulk');
      expect(bulk.body.data.map((item: { outcome: string }) => item.outcome)).toEqual([
        'already_exists',
        'queued',
      ]);
      expect(
        (await pollUntil('GET /v1/scrapes/{id}', ended, bulk.body.data[1].id)).body.status,
      ).toBe('done');

      // the screenshot that scrape took (an image, not JSON)
      const screenshot = example(`GET /v1/stores/{domain}/screenshot`);
      const image = await h.app.inject({
        method: screenshot.method,
        url: screenshot.path,
        headers: { authorization: `Bearer ${key}` },
      });
      expect([screenshot.text, image.statusCode]).toEqual([screenshot.text, 200]);
      expect(image.headers['content-type']).toMatch(/^image\//);
      expect(image.rawPayload.length).toBeGreaterThan(1_000);

      // watch it: the first probe, then one probe a day; the storefront moves on in between
      expect((await follow('POST /v1/signals')).status).toBe(201);
      expect(
        (await pollUntil('GET /v1/signals/{domain}/probe', probeEnded)).body.progress.status,
      ).toBe('done');
      const day = async (change: () => void) => {
        h.clock.advance(DAY);
        change();
        expect((await follow('POST /v1/signals/{domain}/probe')).status).toBe(202);
        expect((await pollUntil('GET /v1/signals/{domain}/probe', probeEnded)).body).toMatchObject({
          kind: 'manual',
          progress: { status: 'done' },
        });
      };
      await day(() => {
        h.storefront.setStock(STORE, TEE, 45); // 5 tees and 3 mugs sold
        h.storefront.setStock(STORE, MUG, 27);
      });
      await day(() => {
        h.storefront.setStock(STORE, TEE, 60); // tees restocked, 4 mugs sold, the mug's price cut
        h.storefront.setStock(STORE, MUG, 23);
        h.storefront.setPrice(STORE, MUG, 1000);
      });
      await day(() => {
        h.storefront.setStock(STORE, TEE, 58); // 2 tees and 7 mugs sold; Klaviyo replaces Judge.me
        h.storefront.setStock(STORE, MUG, 16);
        h.storefront.shops.get(STORE)!.homepage = KLAVIYO;
      });
      await day(() => h.storefront.setStock(STORE, TEE, 40)); // 18 tees: a spike against a median of 8 units a day

      // its ads, as the three libraries list them now
      const today = h.clock.now().toISOString().slice(0, 10);
      ads.set('meta', STORE, [
        { id: '9001', headline: 'New Brand tees', body: 'Soft tees', firstShown: today },
      ]);
      ads.set('tiktok', STORE, [{ id: '7001', firstShown: today }]);
      ads.set('google', STORE, [{ id: 'CR0001', headline: 'New Brand', firstShown: today }]);
      const refreshed = await follow('POST /v1/signals/{domain}/ads/probe');
      expect(refreshed.body.networks.map((n: { status: string }) => n.status)).toEqual([
        'ok',
        'ok',
        'ok',
      ]);

      // the reads
      for (const route of [
        'GET /v1/signals',
        'GET /v1/signals/{domain}',
        'GET /v1/signals/{domain}/stats',
        'GET /v1/signals/{domain}/sales',
        'GET /v1/signals/{domain}/inventory',
        'GET /v1/signals/{domain}/insights',
        'GET /v1/signals/insights',
        'GET /v1/signals/{domain}/apps',
        'GET /v1/signals/{domain}/apps/changes',
        'GET /v1/signals/{domain}/products/changes',
        'GET /v1/signals/{domain}/ads',
        'GET /v1/signals/{domain}/ads/overview',
        'GET /v1/alerts',
        'GET /v1/alerts/1/matches',
      ]) {
        expect((await follow(route)).status).toBe(200);
      }

      // pause, stop and delete the watch last
      expect((await follow('PATCH /v1/signals/{domain}')).body.status).toBe('paused');
      expect((await follow('POST /v1/signals/{domain}/stop')).body.status).toBe('paused');
      expect((await follow('DELETE /v1/signals/{domain}')).body).toEqual({
        domain: STORE,
        deleted: true,
      });

      // the alert matched the store once, at the probe that first saw Klaviyo; then it is deleted
      const matches = await follow('GET /v1/alerts/1/matches');
      expect(matches.body.data.map((m: { domain: string }) => m.domain)).toEqual([STORE]);
      expect((await follow('DELETE /v1/alerts/1')).body).toEqual({ id: 1, deleted: true });

      // every storefront example of docs.md, no more, no less
      expect([...followed].map((e) => e.text).sort()).toEqual(examples.map((e) => e.text).sort());
    }, 240_000);
  },
);
