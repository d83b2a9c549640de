// The storefront farm (test/support/storefront-farm) read by the service's own storefront reader
// through the egress client and a wildcard EGRESS_OVERRIDES entry: what it serves is what real
// storefronts serve (pages past 250 products, currencies, JSON-escaped app loaders, 429s, moves,
// failures), and a store that changes between epochs shows it.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgress } from '../../src/platform/egress/egress.ts';
import { parseEgressOverrides } from '../../src/platform/egress/overrides.ts';
import { loadReferenceData } from '../../src/seed/reference-data.ts';
import { compileFingerprint, type AppFingerprint } from '../../src/storefront/app-fingerprints.ts';
import { diffObservations } from '../../src/storefront/catalog-diff.ts';
import { readProductVariants } from '../../src/storefront/product-js.ts';
import {
  observeStorefront,
  validateStorefront,
  type StorefrontReader,
} from '../../src/storefront/read-storefront.ts';
import {
  createStorefrontClient,
  getStorefrontPath,
} from '../../src/storefront/storefront-client.ts';
import { LocalHostGate } from '../../src/platform/egress/host-gate.ts';
import { behaviourOf, type Behaviour } from '../support/storefront-farm/farm-store.ts';
import {
  startStorefrontFarm,
  type StorefrontFarm,
} from '../support/storefront-farm/farm-server.ts';

let farm: StorefrontFarm;
let reader: StorefrontReader;

beforeAll(async () => {
  farm = await startStorefrontFarm({ stores: 10_000, seed: 1 });
  const reference = loadReferenceData();
  const apps: AppFingerprint[] = reference.apps.map((app, i) =>
    compileFingerprint({
      id: i + 1,
      slug: app.slug,
      name: app.name,
      category: app.category,
      detection_patterns: app.detectionPatterns,
    }),
  );
  reader = {
    client: createStorefrontClient(
      createEgress({
        overrides: parseEgressOverrides(farm.overrides),
        timeoutMs: 15_000,
        maxBytes: 5_000_000,
        hostIntervalMs: 0,
        userAgent: 'farm-test',
      }),
    ),
    apps,
    dropshipVocabulary: reference.vocabulary.dropshipPhrases,
    maxProductPages: 20,
  };
});
afterAll(() => farm?.close());

/** the first listed stores with this behaviour (and, optionally, more than `minProducts` products) */
function storesWith(behaviour: Behaviour, count: number, minProducts = 0): string[] {
  const found: string[] = [];
  for (const host of farm.hosts()) {
    const index = Number(host.slice(1, host.indexOf('.')));
    if (behaviourOf(farm.options.seed, index) !== behaviour) continue;
    if (minProducts > 0 && farm.products(host).length <= minProducts) continue;
    found.push(host);
    if (found.length === count) break;
  }
  expect(found).toHaveLength(count);
  return found;
}

/** the apps a store's homepage shows: an app not detectable from a storefront runs there unseen */
const shownApps = (host: string) =>
  farm
    .store(host)!
    .apps.filter((a) => !a.notDetectable)
    .map((a) => a.slug)
    .sort();

const observe = async (host: string) =>
  observeStorefront(reader, await validateStorefront(reader, host));

describe('storefront farm', () => {
  it('serves 10,000 listed stores, each behaviour in its share', () => {
    expect(farm.hosts()).toHaveLength(10_000);
    const counts = new Map<Behaviour, number>();
    for (let i = 0; i < 10_000; i++)
      counts.set(behaviourOf(1, i), (counts.get(behaviourOf(1, i)) ?? 0) + 1);
    expect(counts.get('ordinary')).toBeGreaterThan(8_500);
    expect(counts.get('rate-limited')).toBeGreaterThan(300);
    for (const rare of [
      'throttled',
      'moved',
      'vanishing',
      'not-shopify',
      'reset',
      'disallowed',
    ] as const)
      expect(counts.get(rare)).toBeGreaterThan(10);
  });

  it('an ordinary store is observed whole: products, lowest prices, currency, theme and apps from escaped loaders', async () => {
    const currencies = new Set<string>();
    for (const host of storesWith('ordinary', 12)) {
      const store = farm.store(host)!;
      const observation = await observe(host);
      const products = farm.products(host);
      expect(observation.products.map((p) => p.handle).sort()).toEqual(
        products.map((p) => p.handle).sort(),
      );
      const first = products[0]!;
      const seen = observation.products.find((p) => p.handle === first.handle)!;
      expect(seen.price).toBe(Math.min(...first.variants.map((v) => v.price)));
      expect(seen.available).toBe(first.variants.some((v) => v.available));
      expect(observation.currency).toBe(store.currency);
      expect(observation.themeName).toBe(store.theme.name);
      expect(observation.name).toBe(store.name);
      expect(observation.apps.map((a) => a.slug).sort()).toEqual(shownApps(host));
      currencies.add(store.currency);
    }
    expect(currencies.size).toBeGreaterThan(1);
  });

  it('detects exactly the apps each store runs, whatever the loader form, and none it runs unseen', async () => {
    const mismatched: string[] = [];
    let runningUnseen = 0;
    for (const host of storesWith('ordinary', 60)) {
      if (farm.store(host)!.apps.some((a) => a.notDetectable)) runningUnseen++;
      const declared = shownApps(host).join(',');
      const observedApps = (await observe(host)).apps
        .map((a) => a.slug)
        .sort()
        .join(',');
      if (observedApps !== declared)
        mismatched.push(`${host}: declared ${declared} detected ${observedApps}`);
    }
    expect(mismatched).toEqual([]);
    expect(runningUnseen).toBeGreaterThan(0);
  });

  it('pages past 250 products on a big store', async () => {
    const [host] = storesWith('ordinary', 1, 500);
    const observation = await observe(host!);
    expect(observation.products.length).toBe(farm.products(host!).length);
    expect(observation.products.length).toBeGreaterThan(500);
  });

  it('a rate-limited store answers 429 with Retry-After and is observed after waiting', async () => {
    const [host] = storesWith('rate-limited', 1);
    const before = farm.stats.byStatus['429'] ?? 0;
    const observation = await observe(host!);
    expect(observation.products.length).toBe(farm.products(host!).length);
    expect(farm.stats.byStatus['429']).toBeGreaterThan(before);
  });

  it('throttled, failing, reset, moved, robots-closed, closing and non-Shopify stores fail with their reason', async () => {
    const [throttled] = storesWith('throttled', 1);
    await expect(observe(throttled!)).rejects.toThrow(/rate-limited .*Retry-After 120/);
    const [failing] = storesWith('failing-products', 1);
    await expect(observe(failing!)).rejects.toThrow(/products\.json .* answered HTTP 502/);
    const [down] = storesWith('failing-homepage', 1);
    await expect(observe(down!)).rejects.toThrow(/answered HTTP 503/);
    const [reset] = storesWith('reset', 1);
    await expect(observe(reset!)).rejects.toThrow(/ECONNRESET|socket hang up/);
    const [moved] = storesWith('moved', 1);
    await expect(observe(moved!)).rejects.toThrow(
      new RegExp(`moved: / redirects to m${moved!.slice(1, moved!.indexOf('.'))}\\.farm\\.test`),
    );
    const [closed] = storesWith('disallowed', 1);
    await expect(observe(closed!)).rejects.toThrow(/robots\.txt of .* disallows \/ /);
    const [plain] = storesWith('not-shopify', 1);
    await expect(observe(plain!)).rejects.toThrow(/not a Shopify storefront/);
    const [vanishing] = storesWith('vanishing', 1);
    await observe(vanishing!);
    farm.advance(vanishing!);
    await expect(observe(vanishing!)).rejects.toThrow(/answered HTTP 404/);
  });

  it('stores that move, break or throttle after entering the catalog answer at epoch 0, then fail with their reason', async () => {
    const later: Array<[Behaviour, RegExp]> = [
      ['moves-later', /moved: \/ redirects to m\d+\.farm\.test/],
      ['breaks-later', /products\.json .* answered HTTP 502/],
      ['throttles-later', /rate-limited .*Retry-After 120/],
    ];
    for (const [behaviour, reason] of later) {
      const [host] = storesWith(behaviour, 1);
      expect((await observe(host!)).products.length).toBe(farm.products(host!).length);
      farm.advance(host);
      await expect(observe(host!)).rejects.toThrow(reason);
    }
  });

  it('about 30 % of stores change at an epoch and the diff shows it; within an epoch a store serves the same bytes', async () => {
    const hosts = storesWith('ordinary', 40);
    const page = async (host: string) =>
      (await reader.client.egress.fetch(`https://${host}/products.json?limit=250`)).body.toString();
    expect(await page(hosts[0]!)).toBe(await page(hosts[0]!));
    // one at a time: a loaded machine answers 40 at once slower than the egress deadline
    const observeAll = async () => {
      const observations = [];
      for (const host of hosts) observations.push(await observe(host));
      return observations;
    };
    const before = await observeAll();
    for (const host of hosts) farm.advance(host);
    const after = await observeAll();
    let changed = 0;
    for (const [i, previous] of before.entries()) {
      const diff = diffObservations(
        {
          themeName: previous.themeName,
          products: new Map(
            previous.products.map((p) => [p.handle, { title: p.title, price: p.price }]),
          ),
          apps: new Map(previous.apps.map((a) => [a.slug, { id: a.id, name: a.name }])),
        },
        {
          themeName: after[i]!.themeName,
          currency: after[i]!.currency ?? 'USD',
          products: after[i]!.products,
          apps: after[i]!.apps,
        },
      );
      if (diff.length > 0) changed++;
    }
    // about 30 % change at each epoch (not every change is one the diff records, e.g. stock alone)
    expect(changed).toBeGreaterThan(3);
    expect(changed).toBeLessThan(30);
  });

  it('/products/<handle>.js gives prices in cents and stock on stores that expose it', async () => {
    let withStock = 0;
    let withoutStock = 0;
    for (const host of storesWith('ordinary', 30)) {
      const store = farm.store(host)!;
      const product = farm.products(host)[0]!;
      const variants = (await readProductVariants(reader.client, host, product.handle))!;
      expect(variants.map((v) => v.price)).toEqual(product.variants.map((v) => v.price));
      if (store.exposesInventory) {
        withStock++;
        expect(variants.map((v) => v.stock)).toEqual(
          product.variants.map((v) => v.inventoryQuantity),
        );
      } else {
        withoutStock++;
        expect(variants.every((v) => v.stock === null)).toBe(true);
      }
    }
    expect(withStock).toBeGreaterThan(0);
    expect(withoutStock).toBeGreaterThan(0);
    expect(
      await readProductVariants(reader.client, storesWith('ordinary', 1)[0]!, 'no-such-product'),
    ).toBeNull();
  });

  it('control routes answer on the farm address only, never under a store name', async () => {
    const own = await fetch(`http://127.0.0.1:${farm.port}/__farm`).then((r) => r.json());
    expect(own).toMatchObject({ stores: 10_000, domain: 'farm.test' });
    const viaStore = await reader.client.egress.fetch('https://s1.farm.test/__farm');
    expect(viaStore.status).toBe(404);
  });

  it('counts the requests it answers at once per host: two at once to a slow store show 2, the gated reader 1', async () => {
    const [slow] = storesWith('slow', 1);
    const get = () =>
      new Promise<void>((resolve, reject) =>
        http
          .get(
            { host: '127.0.0.1', port: farm.port, path: '/meta.json', headers: { host: slow! } },
            (res) => res.resume().on('end', resolve),
          )
          .on('error', reject),
      );
    await fetch(`http://127.0.0.1:${farm.port}/__farm/in-flight`, { method: 'DELETE' });
    await Promise.all([get(), get()]);
    expect(farm.stats).toMatchObject({ maxInFlightPerHost: 2, maxInFlightHost: slow });
    await fetch(`http://127.0.0.1:${farm.port}/__farm/in-flight`, { method: 'DELETE' });
    const gated = createStorefrontClient(
      createEgress({
        overrides: parseEgressOverrides(farm.overrides),
        timeoutMs: 15_000,
        maxBytes: 5_000_000,
        hostIntervalMs: 0,
        userAgent: 'farm-test',
        gate: new LocalHostGate(),
      }),
    );
    await Promise.all([
      getStorefrontPath(gated, slow!, '/meta.json'),
      getStorefrontPath(gated, slow!, '/meta.json'),
    ]);
    expect(farm.stats.maxInFlightPerHost).toBe(1);
  });

  it('serves www-only stores on their www. name alone, and robots.txt answering 429 on robots-busy stores', async () => {
    const [wwwOnly] = storesWith('www-only', 1);
    await expect(reader.client.egress.fetch(`https://${wwwOnly}/`)).rejects.toThrow(
      /ECONNRESET|socket hang up/,
    );
    expect((await reader.client.egress.fetch(`https://www.${wwwOnly}/`)).status).toBe(200);
    // the reader tries the other form of the name
    expect((await observe(wwwOnly!)).products.length).toBe(farm.products(wwwOnly!).length);
    const [busy] = storesWith('robots-busy', 1);
    const robots = await reader.client.egress.fetch(`https://${busy}/robots.txt`);
    expect(robots.status).toBe(429);
    expect(robots.headers['retry-after']).toBe('120');
    await expect(observe(busy!)).rejects.toMatchObject({
      kind: 'rate_limited',
      details: { retryAfterSeconds: 120 },
    });
  });
});
