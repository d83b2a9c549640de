// The seed contract's rules for the catalog, scrape and Signals routes, each an `it` quoting the
// part of spec/store-intelligence-api.md it checks, over real HTTP on the catalog fixture (whose
// expected answers are worked out by hand in test/support/catalog-fixture.ts). The suite runs them
// twice: in open-dev mode and with a key minted by `npm run keys`.
import { expect, it } from 'vitest';
import { MAX_HISTORY_DAYS } from '../../../src/graphql/pagination.ts';
import { EXPECTED, FIXTURE_STORES } from '../../support/catalog-fixture.ts';
import { expectError, type Answer, type ContractClient } from './contract-client.ts';

const CARD_FIELDS = [
  'domain',
  'monthlyVisits',
  'monthlyRevenueUsd',
  'isDropshipper',
  'serviceRating',
  'serviceGrade',
  'vertical',
  'countryCode',
  'traffic',
  'sources',
];

/** Part 2: `{data: [...], page: {limit, offset, count, hasMore, total}}`. */
export function expectListEnvelope(answer: Answer, limit = 20, offset = 0) {
  expect(answer.status, answer.text).toBe(200);
  expect(Array.isArray(answer.body.data), answer.text).toBe(true);
  const { page } = answer.body;
  expect(Object.keys(page).sort()).toEqual(['count', 'hasMore', 'limit', 'offset', 'total']);
  expect(page).toMatchObject({ limit, offset, count: answer.body.data.length });
  expect(typeof page.hasMore).toBe('boolean');
  expect(page.hasMore).toBe(offset + page.count < page.total);
}

function expectCard(card: any) {
  for (const field of CARD_FIELDS) expect(card, field).toHaveProperty(field);
  expect(typeof card.domain).toBe('string');
  expect(typeof card.monthlyVisits).toBe('number');
  expect(Object.keys(card.monthlyRevenueUsd).sort()).toEqual(['high', 'low']);
  expect(typeof card.isDropshipper).toBe('boolean');
  expect(card.serviceRating).toBeGreaterThanOrEqual(0);
  expect(card.serviceRating).toBeLessThanOrEqual(100);
  expect(typeof card.serviceGrade).toBe('string');
  expect(card.traffic).toHaveProperty('latest');
  if (card.traffic.latest !== null)
    for (const mix of ['organic', 'paid', 'social'])
      expect(typeof card.traffic.latest[mix]).toBe('number');
  expect(card.sources.length).toBeGreaterThan(0);
  for (const source of card.sources) expect(source).toMatch(/^[a-z]+:[a-z_]+$/);
}

const domainsOf = (answer: Answer) =>
  answer.body.data.map((item: { domain: string }) => item.domain);

/** Every list route of part 4 with a request that answers a non-empty list on the fixture. */
const LISTS = [
  '/v1/stores',
  '/v1/stores?groupBy=country',
  '/v1/stores/acme-apparel.com/products',
  '/v1/stores/acme-apparel.com/history',
  '/v1/stores/acme-apparel.com/traffic',
  '/v1/stores/acme-apparel.com/apps',
  '/v1/products?isBestSeller=true',
  '/v1/products/changes',
  '/v1/changes',
  '/v1/analytics/verticals',
  '/v1/analytics/countries',
  '/v1/analytics/movers?metric=visits&direction=up',
  '/v1/apps',
  '/v1/apps/klaviyo/stores',
];

export function catalogRules(client: () => ContractClient) {
  it('part 4 pagination: every list takes limit (default 20, at most 100) and offset (default 0) and answers the list envelope', async () => {
    for (const path of LISTS) {
      const join = path.includes('?') ? '&' : '?';
      const first = await client().get(path);
      expectListEnvelope(first);
      expect(first.body.page.count, path).toBeGreaterThan(0);
      const second = await client().get(`${path}${join}limit=1&offset=1`);
      expectListEnvelope(second, 1, 1);
      if (first.body.page.total > 1) expect(second.body.data[0], path).toEqual(first.body.data[1]);
      // history alone reads past 100 (the spec's own example asks for 180 days)
      const tooMany = path.endsWith('/history') ? MAX_HISTORY_DAYS + 1 : 101;
      expect(
        expectError(await client().get(`${path}${join}limit=${tooMany}`), 400, 'bad_request')
          .details.parameter,
        path,
      ).toBe('limit');
      expect(
        expectError(await client().get(`${path}${join}offset=-1`), 400, 'bad_request').details
          .parameter,
        path,
      ).toBe('offset');
    }
  });

  it('part 4 pagination: walking pages until hasMore is false visits every item once', async () => {
    const seen: string[] = [];
    for (let offset = 0; ; offset += 5) {
      const page = await client().get(`/v1/stores?sort=revenue&limit=5&offset=${offset}`);
      expectListEnvelope(page, 5, offset);
      expect(page.body.page.total).toBe(EXPECTED.storeCount);
      seen.push(...domainsOf(page));
      if (!page.body.page.hasMore) break;
    }
    expect(seen).toEqual(EXPECTED.byRevenue);
  });

  it('part 2 store card: the named fields; traffic.latest null without third-party data; sources name backend:table', async () => {
    const list = await client().get('/v1/stores?limit=100');
    expectListEnvelope(list, 100);
    expect(list.body.data).toHaveLength(FIXTURE_STORES.length);
    for (const card of list.body.data) expectCard(card);
    const byDomain = Object.fromEntries(list.body.data.map((card: any) => [card.domain, card]));
    expect(byDomain['cozy-nest.com'].traffic.latest).toBeNull();
    expect(byDomain['acme-apparel.com'].traffic.latest).toMatchObject(EXPECTED.acmeLatestTraffic);
    for (const [domain, sources] of Object.entries(EXPECTED.sources))
      expect(byDomain[domain].sources).toEqual(sources);
    expect(byDomain['acme-apparel.com'].monthlyRevenueUsd).toEqual({ low: 50_000, high: 80_000 });
  });

  it('part 4 stores: q finds by brand or domain (fuzzy); filters and sorts as named; empty results are a success', async () => {
    expect(domainsOf(await client().get('/v1/stores?q=acme'))).toContain('acme-apparel.com');
    expect(domainsOf(await client().get('/v1/stores?q=berlin-boots.de'))[0]).toBe(
      'berlin-boots.de',
    );
    expect(domainsOf(await client().get('/v1/stores?q=acme%20aparel'))[0]).toBe('acme-apparel.com');
    expect(
      domainsOf(await client().get('/v1/stores?countryCode=GB&minVisits=20000&sort=revenue')),
    ).toEqual(EXPECTED.gbAtLeast20kVisits);
    expect(domainsOf(await client().get('/v1/stores?isDropshipper=true&sort=revenue'))).toEqual(
      EXPECTED.dropshippersByRevenue,
    );
    expect(domainsOf(await client().get('/v1/stores?sort=visits&limit=100'))).toEqual(
      EXPECTED.byVisits,
    );
    const apparel = await client().get('/v1/stores?vertical=Apparel&limit=100');
    expect(apparel.body.data.every((card: any) => card.vertical === 'Apparel')).toBe(true);
    expect(apparel.body.page.total).toBe(4);
    const none = await client().get('/v1/stores?q=zzqqxxnothing');
    expectListEnvelope(none);
    expect(none.body.data).toEqual([]);
    expect(none.body.page).toMatchObject({ total: 0, hasMore: false });
    expect(
      expectError(await client().get('/v1/stores?sort=nonsense'), 400, 'bad_request').details
        .parameter,
    ).toBe('sort');
  });

  it('part 2 grouped rows: meta.mode grouped, metrics.monthlyRevenueUsd one number by groupMetric, parent and leaf with groupBy2', async () => {
    const byMetric: Record<string, number> = {};
    for (const metric of ['mean', 'median', 'max', 'min']) {
      const grouped = await client().get(`/v1/stores?groupBy=country&groupMetric=${metric}`);
      expectListEnvelope(grouped);
      expect(grouped.body.meta.mode).toBe('grouped');
      const us = grouped.body.data.find((row: any) => row.key === 'US');
      expect(typeof us.metrics.monthlyRevenueUsd).toBe('number');
      byMetric[metric] = us.metrics.monthlyRevenueUsd;
    }
    const us = EXPECTED.countryGroups[0]!;
    expect(byMetric).toEqual({
      mean: us.meanRevenue,
      median: us.medianRevenue,
      max: us.maxRevenue,
      min: us.minRevenue,
    });

    const byStores = await client().get('/v1/stores?groupBy=country&sort=stores');
    expect(byStores.body.data.map((row: any) => row.key)).toEqual(
      EXPECTED.countryGroups.map((group) => group.key),
    );
    expect(byStores.body.data.map((row: any) => row.stores)).toEqual([5, 4, 3]);
    const byRevenue = await client().get('/v1/stores?groupBy=country&sort=revenue');
    expect(byRevenue.body.data.map((row: any) => row.key)).toEqual(
      EXPECTED.countryKeysByMedianRevenue,
    );

    const two = await client().get('/v1/stores?groupBy=country&groupBy2=vertical&limit=100');
    expect(two.body.meta.mode).toBe('grouped');
    expect(two.body.data.map((row: any) => row.key)).toEqual(EXPECTED.countryVerticalKeys);
    const usApparel = two.body.data.find((row: any) => row.key === 'US / Apparel');
    expect(usApparel).toMatchObject({ parent: 'US', leaf: 'Apparel' });

    // the same filters as a plain search; dropping groupBy lists the stores behind the cell
    const gb = await client().get('/v1/stores?countryCode=GB&groupBy=vertical&limit=100');
    expect(gb.body.data.reduce((sum: number, row: any) => sum + row.stores, 0)).toBe(4);
    const cell = await client().get('/v1/stores?countryCode=US&vertical=Apparel&limit=100');
    expect(cell.body.page.total).toBe(usApparel.stores);
    for (const groupBy of ['industry', 'category'])
      expect((await client().get(`/v1/stores?groupBy=${groupBy}`)).body.meta.mode).toBe('grouped');
    // a plain search carries no grouped mode
    expect((await client().get('/v1/stores')).body.meta?.mode).not.toBe('grouped');
  });

  it('part 4 store profile: the card fields and more; {domain} takes a bare domain or a full URL with scheme and www; not_found (404)', async () => {
    const profile = await client().get('/v1/stores/acme-apparel.com');
    expect(profile.status).toBe(200);
    expectCard(profile.body);
    for (const field of ['metrics', 'apps', 'socials', 'emails', 'screenshotUrl'])
      expect(profile.body).toHaveProperty(field);
    expect(profile.body.sources).toEqual(EXPECTED.sources['acme-apparel.com']);
    const spellings = [
      'https%3A%2F%2Fwww.acme-apparel.com',
      'http%3A%2F%2Facme-apparel.com%2F',
      'www.acme-apparel.com',
      'ACME-APPAREL.COM',
      // a full URL as is, unencoded
      'https://www.acme-apparel.com',
      'https://acme-apparel.com/',
    ];
    for (const spelling of spellings) {
      const same = await client().get(`/v1/stores/${spelling}`);
      expect(same.status, spelling).toBe(200);
      expect(same.body.domain).toBe('acme-apparel.com');
    }
    expect(
      expectError(await client().get('/v1/stores/not-in-the-catalog.com'), 404, 'not_found')
        .details,
    ).toEqual({ domain: 'not-in-the-catalog.com' });
  });

  it('part 4 compare: 2 to 8 domains, side-by-side cards; missing domains in notFound, never a 404', async () => {
    const compared = await client().get(
      '/v1/stores/compare?domains=acme-apparel.com,https%3A%2F%2Fwww.glow-skin.com,missing-one.com',
    );
    expect(compared.status).toBe(200);
    expect(domainsOf(compared)).toEqual(['acme-apparel.com', 'glow-skin.com']);
    for (const card of compared.body.data) expectCard(card);
    expect(compared.body.notFound).toEqual(['missing-one.com']);
    const allMissing = await client().get(
      '/v1/stores/compare?domains=missing-one.com,missing-two.com',
    );
    expect(allMissing.status).toBe(200);
    expect(allMissing.body).toMatchObject({
      data: [],
      notFound: ['missing-one.com', 'missing-two.com'],
    });
    expectError(
      await client().get('/v1/stores/compare?domains=acme-apparel.com'),
      400,
      'bad_request',
    );
    const nine = Array.from({ length: 9 }, (_, i) => `store-${i}.com`).join(',');
    expectError(await client().get(`/v1/stores/compare?domains=${nine}`), 400, 'bad_request');
    const eight = Array.from({ length: 8 }, (_, i) => `store-${i}.com`).join(',');
    expect((await client().get(`/v1/stores/compare?domains=${eight}`)).status).toBe(200);
  });

  it('part 4 store sub-resources: products (isBestSeller), daily history, monthly traffic with the latest mix, the app stack', async () => {
    const best = await client().get('/v1/stores/acme-apparel.com/products?isBestSeller=true');
    expect(best.body.data.map((p: any) => p.handle)).toEqual(['classic-hoodie', 'everyday-tee']);
    const history = await client().get('/v1/stores/acme-apparel.com/history?limit=2');
    expectListEnvelope(history, 2);
    expect(history.body.data[0]).toMatchObject({
      day: '2025-12-31',
      monthlyVisits: 120_000,
      serviceRating: 88,
      productCount: 3,
    });
    const traffic = await client().get('/v1/stores/acme-apparel.com/traffic?limit=24');
    expectListEnvelope(traffic, 24);
    expect(traffic.body.data).toHaveLength(3);
    expect(traffic.body.latest).toMatchObject(EXPECTED.acmeLatestTraffic);
    const none = await client().get('/v1/stores/cozy-nest.com/traffic');
    expect(none.body.latest).toBeNull();
    const apps = await client().get('/v1/stores/acme-apparel.com/apps');
    expect(apps.body.data.map((a: any) => a.slug)).toEqual(EXPECTED.acmeApps);
    for (const sub of ['products', 'history', 'traffic', 'apps'])
      expectError(await client().get(`/v1/stores/not-in-the-catalog.com/${sub}`), 404, 'not_found');
    // a full URL as {domain}, unencoded, before a sub-resource
    const viaUrl = await client().get(
      '/v1/stores/https://www.acme-apparel.com/products?isBestSeller=true',
    );
    expect(viaUrl.body.data.map((p: any) => p.handle)).toEqual(['classic-hoodie', 'everyday-tee']);
  });

  it('part 4 products: at least one filter; q, isBestSeller, priceMin/priceMax; one product by (domain, handle); currency USD when absent', async () => {
    expectError(await client().get('/v1/products'), 400, 'bad_request');
    expectError(await client().get('/v1/products?limit=5'), 400, 'bad_request');
    const q = await client().get('/v1/products?q=hoodie');
    expect(q.body.data.map((p: any) => p.handle)).toEqual(['classic-hoodie']);
    const best = await client().get('/v1/products?isBestSeller=true');
    expect(best.body.data.map((p: any) => p.handle)).toEqual(EXPECTED.bestSellers);
    expect(best.body.data.every((p: any) => p.isBestSeller === true)).toBe(true);
    const priced = await client().get('/v1/products?priceMin=20&priceMax=40');
    expect(priced.body.data.map((p: any) => p.handle)).toEqual(EXPECTED.priced20to40);
    const product = await client().get('/v1/products/acme-apparel.com/classic-hoodie');
    expect(product.status).toBe(200);
    expect(
      (await client().get('/v1/products/https://www.acme-apparel.com/classic-hoodie')).body,
    ).toEqual(product.body);
    expect(product.body).toMatchObject({
      domain: 'acme-apparel.com',
      handle: 'classic-hoodie',
      isBestSeller: true,
      price: 59,
      currency: 'USD',
    });
    expect((await client().get('/v1/products/berlin-boots.de/chelsea-boot')).body.currency).toBe(
      'EUR',
    );
    expect(
      expectError(
        await client().get('/v1/products/acme-apparel.com/no-such-handle'),
        404,
        'not_found',
      ).details,
    ).toMatchObject({
      domain: 'acme-apparel.com',
      handle: 'no-such-handle',
    });
  });

  it('part 4 change feeds: product changes by changeType, minPriceChangePct and since; one feed by entity, domain and since', async () => {
    const all = await client().get('/v1/products/changes');
    expect(all.body.data.map((c: any) => c.subject)).toEqual(EXPECTED.productChanges);
    const drops = await client().get(
      '/v1/products/changes?changeType=price_decrease&minPriceChangePct=15',
    );
    expect(drops.body.data.map((c: any) => c.subject)).toEqual(EXPECTED.bigPriceDrops);
    const since = await client().get('/v1/products/changes?since=2025-12-21');
    expect(since.body.data.every((c: any) => c.detectedAt >= '2025-12-21')).toBe(true);
    expect(since.body.data.length).toBeGreaterThan(0);
    expect(
      expectError(await client().get('/v1/products/changes?since=yesterday'), 400, 'bad_request')
        .details.parameter,
    ).toBe('since');
    expect(
      expectError(await client().get('/v1/products/changes?since=0000-01-01'), 400, 'bad_request')
        .details.parameter,
    ).toBe('since');
    const acme = await client().get('/v1/changes?domain=acme-apparel.com');
    expect(acme.body.data.map((c: any) => c.changeType)).toEqual(EXPECTED.acmeChanges);
    for (const change of acme.body.data)
      expect(change).toMatchObject({ domain: 'acme-apparel.com', entity: expect.any(String) });
    const products = await client().get('/v1/changes?entity=product');
    expect(products.body.data.length).toBeGreaterThan(0);
    expect(products.body.data.every((c: any) => c.entity === 'product')).toBe(true);
    expect((await client().get('/v1/changes?since=2026-01-01')).body.data).toEqual([]);
  });

  it('part 4 analytics: overview, verticals, countries (optionally in one vertical), movers', async () => {
    const overview = await client().get('/v1/analytics/overview');
    expect(overview.status).toBe(200);
    expect(overview.body).toMatchObject({ stores: EXPECTED.overview.stores });
    const verticals = await client().get('/v1/analytics/verticals');
    expect(verticals.body.data).toEqual(
      EXPECTED.verticalStats.map((row) => expect.objectContaining(row)),
    );
    const countries = await client().get('/v1/analytics/countries');
    expect(countries.body.data).toEqual(
      EXPECTED.countryStats.map((row) => expect.objectContaining(row)),
    );
    const beauty = await client().get('/v1/analytics/countries?vertical=Beauty');
    expect(beauty.body.data).toEqual(
      EXPECTED.beautyCountryStats.map((row) => expect.objectContaining(row)),
    );
    const up = await client().get('/v1/analytics/movers?metric=visits&direction=up&minPct=20');
    expect(up.body.data.map((m: any) => [m.store.domain, m.changePct])).toEqual(
      EXPECTED.visitMoversUp20.map((m) => [m.domain, m.changePct]),
    );
    const down = await client().get('/v1/analytics/movers?metric=revenue&direction=down&minPct=10');
    expect(down.body.data.map((m: any) => m.store.domain)).toEqual(EXPECTED.revenueMoversDown10);
  });

  it('part 4 apps: q, one app with its install-base sample, its stores sorted by visits', async () => {
    const found = await client().get('/v1/apps?q=klaviyo');
    expect(found.body.data.map((a: any) => a.slug)).toEqual(['klaviyo']);
    const app = await client().get('/v1/apps/klaviyo');
    expect(app.status).toBe(200);
    expect(app.body.slug).toBe('klaviyo');
    const stores = await client().get('/v1/apps/klaviyo/stores');
    expect(domainsOf(stores)).toEqual(EXPECTED.klaviyoStores);
    expectError(await client().get('/v1/apps/no-such-app'), 404, 'not_found');
    expectError(await client().get('/v1/apps/no-such-app/stores'), 404, 'not_found');
  });
}

/**
 * Parts 3, 4, 6, 8: scrape requests. `fresh` is a domain not in the catalog that no one asked for yet;
 * `forceable` a catalog store nobody asked to scrape in the last 5 minutes.
 */
export function scrapeRules(client: () => ContractClient, fresh: string, forceable: string) {
  it('part 3 scrapes: a store not in the catalog → HTTP 202 with the request id at the top level; GET /v1/scrapes/{id} shows it', async () => {
    const queued = await client().request('POST', '/v1/scrapes', {
      body: { domain: fresh, callbackUrl: 'https://hooks.example.com/s' },
    });
    expect(queued.status, queued.text).toBe(202);
    expect(queued.body).toMatchObject({
      id: expect.any(String),
      status: 'queued',
      domain: fresh,
      force: false,
      callbackUrl: 'https://hooks.example.com/s',
    });
    const status = await client().get(`/v1/scrapes/${queued.body.id}`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ id: queued.body.id, domain: fresh, status: 'queued' });
    // asked again while queued: that same request, no second job
    const again = await client().request('POST', '/v1/scrapes', {
      body: { domain: `https://www.${fresh}/` },
    });
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(queued.body.id);
    expectError(
      await client().get('/v1/scrapes/00000000-0000-4000-8000-000000000000'),
      404,
      'not_found',
    );
  });

  it('part 3 scrapes: a catalog store without force → an already_exists indication and no job; with force → 202, then the 5-minute cooldown', async () => {
    const exists = await client().request('POST', '/v1/scrapes', {
      body: { domain: 'acme-apparel.com' },
    });
    expect(exists.status).toBe(200);
    expect(exists.body).toMatchObject({ outcome: 'already_exists', domain: 'acme-apparel.com' });
    expect(exists.body.id).toBeUndefined();
    const forced = await client().request('POST', '/v1/scrapes', {
      body: { domain: forceable, force: true },
    });
    expect(forced.status).toBe(202);
    expect(forced.body).toMatchObject({ id: expect.any(String), force: true, domain: forceable });
    const cooled = await client().request('POST', '/v1/scrapes', {
      body: { domain: forceable, force: true },
    });
    expectError(cooled, 429, 'rate_limited');
    expect(Number(cooled.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('parts 4, 6, 8: callbackUrl is HTTPS only; bulk takes at most 10 URLs and carries each request id', async () => {
    const http = await client().request('POST', '/v1/scrapes', {
      body: { domain: `other-${fresh}`, callbackUrl: 'http://hooks.example.com/s' },
    });
    expect(expectError(http, 400, 'bad_request').details.parameter).toBe('callbackUrl');
    const eleven = Array.from({ length: 11 }, (_, i) => `bulk-${i}-${fresh}`);
    expectError(
      await client().request('POST', '/v1/scrapes/bulk', { body: { urls: eleven } }),
      400,
      'bad_request',
    );
    const bulk = await client().request('POST', '/v1/scrapes/bulk', {
      body: { urls: ['acme-apparel.com', `bulk-a-${fresh}`] },
    });
    expect(bulk.status).toBe(200);
    const [existing, queued] = bulk.body.data;
    expect(existing).toMatchObject({ outcome: 'already_exists', domain: 'acme-apparel.com' });
    expect(queued).toMatchObject({
      outcome: 'queued',
      domain: `bulk-a-${fresh}`,
      id: expect.any(String),
    });
    expect((await client().get(`/v1/scrapes/${queued.id}`)).body.status).toBe('queued');
  });
}

/** Parts 3 and 4: a watch's life; `domain` is a catalog store with the legacy id `legacyId`. */
export function signalRules(client: () => ContractClient, domain: string, legacyId: string) {
  it('part 3 signals: POST creates a watch, a second POST is HTTP 409 (code from the six); the probe is polled at progress.status', async () => {
    const created = await client().request('POST', '/v1/signals', { body: { domain } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ domain, status: 'tracked' });
    const twice = await client().request('POST', '/v1/signals', {
      body: { domain: `https://www.${domain}` },
    });
    expect(expectError(twice, 409, 'bad_request').details.reason).toBe('already_tracked');
    const probe = await client().get(`/v1/signals/${domain}/probe`);
    expect(probe.status).toBe(200);
    expect(typeof probe.body.progress.status).toBe('string');
    expect(probe.body.probe).toBeUndefined();
    expectError(
      await client().request('POST', '/v1/signals', { body: { domain: 'not-in-the-catalog.com' } }),
      404,
      'not_found',
    );
  });

  it('part 4 signals: every read route answers for the domain and for the legacy store-database id', async () => {
    for (const id of [domain, legacyId]) {
      for (const path of [
        'stats',
        'sales?from=2025-12-01',
        'inventory?days=7',
        'insights?kind=restock',
        'ads/overview?days=30',
        'ads',
        'apps',
        'apps/changes',
        'products/changes',
      ]) {
        const answer = await client().get(`/v1/signals/${id}/${path}`);
        expect(answer.status, `${id}/${path}: ${answer.text}`).toBe(200);
        if (Array.isArray(answer.body.data)) expectListEnvelope(answer);
      }
    }
    // every list of a watch pages like every list
    for (const path of [
      'sales',
      'inventory',
      'insights',
      'ads',
      'apps',
      'apps/changes',
      'products/changes',
    ]) {
      expectListEnvelope(
        await client().get(`/v1/signals/${domain}/${path}?limit=3&offset=2`),
        3,
        2,
      );
    }
    expectListEnvelope(await client().get('/v1/signals/insights'));
    expectListEnvelope(await client().get('/v1/signals?limit=1'), 1);
    expectError(await client().get('/v1/signals/not-watched.com/stats'), 404, 'not_found');
  });

  it('part 3 signals: PATCH {status: paused} and POST /stop pause it; DELETE removes it and the catalog keeps the store', async () => {
    const paused = await client().request('PATCH', `/v1/signals/${domain}`, {
      body: { status: 'paused' },
    });
    expect(paused.status).toBe(200);
    expect(paused.body.status).toBe('paused');
    const stopped = await client().request('POST', `/v1/signals/${legacyId}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body.status).toBe('paused');
    expect((await client().request('DELETE', `/v1/signals/${domain}`)).status).toBe(200);
    expectError(await client().get(`/v1/signals/${domain}/stats`), 404, 'not_found');
    expect((await client().get(`/v1/stores/${domain}`)).status).toBe(200);
  });
}
