// The recipes of /v1/examples that need a live storefront, followed literally against fixture
// storefronts (this machine reaches no real one; EGRESS_OVERRIDES sends the recipe's store name to
// them): scrape a store missing from the catalog then read its profile, and watch it then read its
// estimated sales. Between the watch's two probes the world moves on as it would: a day passes
// and the storefront sells some stock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES } from '../../rest/self-description/examples.ts';
import {
  startFixtureStorefronts,
  type FixtureStorefronts,
} from '../scrapes/support/fixture-storefronts.ts';
import { startScrapeHarness, type ScrapeHarness } from '../scrapes/support/scrape-harness.ts';
import {
  HARNESS_START,
  startSignalsHarness,
  type SignalsHarness,
} from '../signals/support/signals-harness.ts';
import { observe, partitionsFor } from '../alerts/support.ts';

interface Step {
  method: 'GET' | 'POST';
  path: string;
  body?: Record<string, unknown>;
}

const DAY = 86_400_000;

/** the store a recipe names in its request body, for the fixture storefront to answer as */
const storeOf = (id: string) =>
  (
    EXAMPLES.workflows.find((w) => w.id === id)!.steps.find((step) => step.body)!.body as {
      domain: string;
    }
  ).domain;

async function workflow(
  get: (path: string) => Promise<{ body: any }>,
  id: string,
): Promise<Step[]> {
  const { body } = await get('/v1/examples');
  return (body.workflows as Array<{ id: string; steps: Step[] }>).find((w) => w.id === id)!.steps;
}

describe('storefront recipes', () => {
  describe('scrape-then-poll', () => {
    let fixtures: FixtureStorefronts;
    let harness: ScrapeHarness;
    beforeAll(async () => {
      const store = storeOf('scrape-then-poll');
      fixtures = await startFixtureStorefronts({ alsoShopA: [store] });
      harness = await startScrapeHarness({ env: { EGRESS_OVERRIDES: fixtures.overrides } });
    });
    afterAll(async () => {
      await harness?.close();
      await fixtures?.close();
    });

    it('finds the store missing, queues its scrape, polls it to done and reads the new profile', async () => {
      const [check, queue, poll, read] = await workflow(harness.get, 'scrape-then-poll');
      const checked = await harness.get(check!.path);
      expect(checked.status).toBe(200);
      expect(checked.body.data.map((store: { domain: string }) => store.domain)).not.toContain(
        queue!.body!.domain,
      );
      const queued = await harness.post(queue!.path, queue!.body);
      expect(queued.status).toBe(202);
      const id = queued.body.id as string;
      expect(poll!.path).toBe('/v1/scrapes/{id}');
      await harness.waitFor(id, ['done']);
      expect((await harness.get(poll!.path.replace('{id}', id))).body).toMatchObject({
        id,
        status: 'done',
      });
      const profile = await harness.get(read!.path);
      expect(profile.status).toBe(200);
      expect(profile.body).toMatchObject({ domain: queue!.body!.domain, apps: expect.any(Array) });
    });
  });

  describe('watch-then-read-sales', () => {
    let h: SignalsHarness;
    let key: string;
    let store: string;
    beforeAll(async () => {
      store = storeOf('watch-then-read-sales');
      const shops = new Map([
        [
          store,
          {
            name: 'New Brand',
            exposesStock: true,
            products: [
              {
                handle: 'tee',
                title: 'Tee',
                variants: [
                  { id: 11, sku: 'TEE', title: 'Default Title', priceCents: 2000, stock: 50 },
                ],
              },
            ],
          },
        ],
      ]);
      h = await startSignalsHarness({ shops });
      key = await h.mintKey();
      // in the catalog, as the scrape recipe left it
      await h.addStore(store, [{ handle: 'tee', title: 'Tee', price: 20, bestSellerRank: 1 }]);
    }, 60_000);
    afterAll(async () => {
      await h?.close();
    });

    it('watches, probes twice a day apart, then reads non-empty estimated sales and stats', async () => {
      const get = (path: string) => h.request('GET', path, { key });
      const [watch, firstProbe, probeAgain, sales, stats] = await workflow(
        get,
        'watch-then-read-sales',
      );

      expect((await h.request(watch!.method, watch!.path, { key, body: watch!.body })).status).toBe(
        201,
      );
      expect((await get(firstProbe!.path)).status).toBe(200);
      expect(await h.waitForProbe(store, key)).toMatchObject({ progress: { status: 'done' } });

      // a day later the storefront has sold 6 tees
      h.clock.advance(DAY);
      h.storefront.setStock(store, 11, 44);
      expect((await h.request(probeAgain!.method, probeAgain!.path, { key })).status).toBe(202);
      expect(await h.waitForProbe(store, key)).toMatchObject({ progress: { status: 'done' } });

      const daily = await get(sales!.path);
      expect(daily.status).toBe(200);
      expect(daily.body.data.length).toBeGreaterThan(0);
      expect(
        daily.body.data.reduce((units: number, day: { units: number }) => units + day.units, 0),
      ).toBe(6);
      const aggregate = await get(stats!.path);
      expect(aggregate.body).toMatchObject({ ready: true });
    });
  });

  describe('alert-then-matches', () => {
    let h: SignalsHarness;
    let key: string;
    beforeAll(async () => {
      h = await startSignalsHarness({ appCatalog: true });
      key = await h.mintKey();
      await partitionsFor(h.services);
    }, 60_000);
    afterAll(async () => {
      await h?.close();
    });

    it('saves the alert, and a store observed installing the app is its match', async () => {
      const get = (path: string) => h.request('GET', path, { key });
      const [save, read] = await workflow(get, 'alert-then-matches');
      const saved = await h.request(save!.method, save!.path, { key, body: save!.body });
      expect(saved.status).toBe(201);
      const slug = (save!.body!.filter as { app: string }).app;
      // a store observed without the app, then with it
      await observe(h.services.db.pool, { domain: 'adopter.test', apps: [] }, HARNESS_START);
      const installedAt = new Date(HARNESS_START.getTime() + DAY / 2);
      await observe(h.services.db.pool, { domain: 'adopter.test', apps: [slug] }, installedAt);
      expect(read!.path).toBe('/v1/alerts/{id}/matches');
      const matches = await get(read!.path.replace('{id}', String(saved.body.id)));
      expect(matches.body.data).toEqual([
        { domain: 'adopter.test', matchedAt: installedAt.toISOString() },
      ]);
    });
  });
});
