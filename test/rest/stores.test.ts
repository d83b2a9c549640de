// Contract tests of the Stores routes on the known catalog, through the real HTTP server. Every
// JSON answer is also checked against the OpenAPI response schema (support/rest-app.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED } from '../support/catalog-fixture.ts';
import { openRestApp, type RestApp } from './support/rest-app.ts';

const CARD_FIELDS = [
  'countryCode',
  'domain',
  'isDropshipper',
  'monthlyRevenueUsd',
  'monthlyVisits',
  'serviceGrade',
  'serviceRating',
  'sources',
  'traffic',
  'vertical',
];

const domainsOf = (body: { data: Array<{ domain: string }> }) =>
  body.data.map((store) => store.domain);

describe('GET /v1/stores', () => {
  let rest: RestApp;
  beforeAll(async () => {
    rest = await openRestApp({ fixture: true });
  });
  afterAll(async () => {
    await rest?.close();
  });

  it('lists store cards by revenue with limit 20 and offset 0 by default', async () => {
    const res = await rest.get('/v1/stores');
    expect(res.status).toBe(200);
    expect(res.body.page).toEqual({ limit: 20, offset: 0, count: 12, hasMore: false, total: 12 });
    expect(domainsOf(res.body)).toEqual(EXPECTED.byRevenue);
  });

  it('answers store cards with exactly the card fields', async () => {
    const res = await rest.get('/v1/stores?limit=100');
    for (const card of res.body.data) expect(Object.keys(card).sort()).toEqual(CARD_FIELDS);
    const acme = res.body.data.find(
      (card: { domain: string }) => card.domain === 'acme-apparel.com',
    );
    expect(acme).toEqual({
      domain: 'acme-apparel.com',
      monthlyVisits: 120_000,
      monthlyRevenueUsd: { low: 50_000, high: 80_000 },
      isDropshipper: false,
      serviceRating: 88,
      serviceGrade: 'A',
      vertical: 'Apparel',
      countryCode: 'US',
      traffic: { latest: EXPECTED.acmeLatestTraffic },
      sources: EXPECTED.sources['acme-apparel.com'],
    });
    const cozy = res.body.data.find((card: { domain: string }) => card.domain === 'cozy-nest.com');
    expect(cozy.traffic).toEqual({ latest: null });
    expect(cozy.sources).toEqual(EXPECTED.sources['cozy-nest.com']);
  });

  it('pages with limit and offset: hasMore until the last page, total across pages', async () => {
    const first = await rest.get('/v1/stores?limit=5');
    expect(first.body.page).toEqual({ limit: 5, offset: 0, count: 5, hasMore: true, total: 12 });
    const last = await rest.get('/v1/stores?limit=5&offset=10');
    expect(last.body.page).toEqual({ limit: 5, offset: 10, count: 2, hasMore: false, total: 12 });
    expect(domainsOf(last.body)).toEqual(EXPECTED.byRevenue.slice(10));
    const beyond = await rest.get('/v1/stores?offset=50');
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual({
      data: [],
      page: { limit: 20, offset: 50, count: 0, hasMore: false, total: 12 },
    });
  });

  it('accepts limit 100 and rejects 101, 0, -1 offsets and non-integers naming the parameter', async () => {
    expect((await rest.get('/v1/stores?limit=100')).status).toBe(200);
    for (const [query, parameter] of [
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['limit=2.5', 'limit'],
      ['limit=1e2', 'limit'],
      ['limit=', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=ten', 'offset'],
    ]) {
      const res = await rest.get(`/v1/stores?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'bad_request', details: { parameter } });
    }
    expect((await rest.get('/v1/stores?limit=101')).body.error.details.rule).toBe(
      'must be an integer from 1 to 100',
    );
  });

  it('sorts by visits or rating; sort=stores without groupBy keeps the default order', async () => {
    expect(domainsOf((await rest.get('/v1/stores?sort=visits')).body)).toEqual(EXPECTED.byVisits);
    expect(domainsOf((await rest.get('/v1/stores?sort=rating')).body)).toEqual(EXPECTED.byRating);
    expect(domainsOf((await rest.get('/v1/stores?sort=stores')).body)).toEqual(EXPECTED.byRevenue);
  });

  it('filters by country code (any case), visits and the dropshipper class', async () => {
    expect(domainsOf((await rest.get('/v1/stores?countryCode=gb&minVisits=20000')).body)).toEqual(
      EXPECTED.gbAtLeast20kVisits,
    );
    expect(domainsOf((await rest.get('/v1/stores?isDropshipper=true')).body)).toEqual(
      EXPECTED.dropshippersByRevenue,
    );
    const q = await rest.get('/v1/stores?q=acme');
    // the one acme store, and none of the others (a fuzzy search must not pad the page with look-alikes)
    expect(domainsOf(q.body)).toEqual(['acme-apparel.com']);
    expect(q.body.page).toMatchObject({ count: 1, total: 1 });
  });

  it('rejects malformed filters, unknown parameters and repeated parameters with bad_request', async () => {
    for (const [query, parameter] of [
      ['isDropshipper=1', 'isDropshipper'],
      ['isDropshipper=yes', 'isDropshipper'],
      ['countryCode=USA', 'countryCode'],
      ['minVisits=5000&maxVisits=100', 'minVisits'],
      ['sort=popular', 'sort'],
      ['country=US', 'country'],
      ['apiKey=secret', 'apiKey'],
      ['q=a&q=b', 'q'],
    ]) {
      const res = await rest.get(`/v1/stores?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'bad_request', details: { parameter } });
    }
    const unknown = await rest.get('/v1/stores?country=US');
    expect(unknown.body.error.details.rule).toContain('countryCode');
  });

  describe('grouped mode', () => {
    it('rolls the stores up by country with meta.mode grouped and the median by default', async () => {
      const res = await rest.get('/v1/stores?groupBy=country');
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({
        mode: 'grouped',
        groupBy: 'country',
        groupBy2: null,
        groupMetric: 'median',
      });
      expect(res.body.page).toEqual({ limit: 20, offset: 0, count: 3, hasMore: false, total: 3 });
      expect(
        res.body.data.map(
          (row: {
            key: string;
            stores: number;
            metrics: { monthlyRevenueUsd: number; monthlyVisits: number };
          }) => [row.key, row.stores, row.metrics.monthlyRevenueUsd, row.metrics.monthlyVisits],
        ),
      ).toEqual(
        EXPECTED.countryGroups.map((g) => [g.key, g.stores, g.medianRevenue, g.medianVisits]),
      );
    });

    it('applies groupMetric and sort=revenue', async () => {
      const mean = await rest.get('/v1/stores?groupBy=country&groupMetric=mean');
      expect(mean.body.meta.groupMetric).toBe('mean');
      expect(
        mean.body.data.map(
          (row: { metrics: { monthlyRevenueUsd: number } }) => row.metrics.monthlyRevenueUsd,
        ),
      ).toEqual(EXPECTED.countryGroups.map((g) => g.meanRevenue));
      const byRevenue = await rest.get('/v1/stores?groupBy=country&sort=revenue');
      expect(byRevenue.body.data.map((row: { key: string }) => row.key)).toEqual(
        EXPECTED.countryKeysByMedianRevenue,
      );
    });

    it('nests groupBy2 under groupBy: rows carry parent and leaf', async () => {
      const res = await rest.get('/v1/stores?groupBy=country&groupBy2=vertical&limit=100');
      expect(res.body.meta).toEqual({
        mode: 'grouped',
        groupBy: 'country',
        groupBy2: 'vertical',
        groupMetric: 'median',
      });
      expect(res.body.data.map((row: { key: string }) => row.key)).toEqual(
        EXPECTED.countryVerticalKeys,
      );
      const usApparel = res.body.data.find((row: { key: string }) => row.key === 'US / Apparel');
      expect(usApparel).toMatchObject({ parent: 'US', leaf: 'Apparel', stores: 2 });
      expect(usApparel.metrics.monthlyRevenueUsd).toBe(
        EXPECTED.countryVerticalMedians['US / Apparel'],
      );
    });

    it('lists the stores behind a grouped cell when groupBy is dropped and the cell becomes a filter', async () => {
      const grouped = await rest.get(
        '/v1/stores?vertical=Apparel&groupBy=country&groupBy2=vertical&sort=stores&groupMetric=max',
      );
      const us = grouped.body.data.find((row: { parent: string }) => row.parent === 'US');
      const cell = await rest.get(
        '/v1/stores?vertical=Apparel&countryCode=US&groupBy2=vertical&sort=stores&groupMetric=max',
      );
      expect(cell.status).toBe(200);
      expect(cell.body.meta).toBeUndefined();
      expect(cell.body.page.total).toBe(us.stores);
      expect(domainsOf(cell.body)).toEqual(['acme-apparel.com', 'urban-threads.com']);
    });

    it('rejects a store-only sort, a repeated grouping and an unknown grouping', async () => {
      for (const [query, parameter] of [
        ['groupBy=country&sort=rating', 'sort'],
        ['groupBy=country&groupBy2=country', 'groupBy2'],
        ['groupBy=city', 'groupBy'],
        ['groupBy=country&groupMetric=average', 'groupMetric'],
      ]) {
        const res = await rest.get(`/v1/stores?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'bad_request', details: { parameter } });
      }
    });
  });
});

describe('GET /v1/stores/{domain} and its sub-resources', () => {
  let rest: RestApp;
  beforeAll(async () => {
    rest = await openRestApp({ fixture: true });
  });
  afterAll(async () => {
    await rest?.close();
  });

  it('returns the unified profile: the card plus the profile fields from both backends', async () => {
    const res = await rest.get('/v1/stores/acme-apparel.com');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      domain: 'acme-apparel.com',
      name: 'Acme Apparel',
      monthlyRevenueUsd: { low: 50_000, high: 80_000 },
      traffic: { latest: EXPECTED.acmeLatestTraffic },
      sources: EXPECTED.sources['acme-apparel.com'],
      industry: 'Fashion',
      category: 'Clothing',
      legacyId: 'a0a0a0a0a0a0a0a0a0a0a001',
      metrics: {
        productCount: 3,
        appCount: 3,
        socialFollowers: 15_000,
        adSpendUsd: 5_000,
        visitsChangePct: 25,
        revenueChangePct: 20,
      },
      conversionRatePct: { low: 1.2, high: 2.4 },
      averageOrderValueUsd: 50,
      screenshotUrl: 'https://shots.example/acme.png',
      socials: { instagram: 'https://instagram.com/acme', facebook: 'https://facebook.com/acme' },
      emails: ['hello@acme-apparel.com'],
    });
    expect(res.body.apps.map((app: { slug: string }) => app.slug)).toEqual(EXPECTED.acmeApps);
    expect(Object.keys(res.body.models).sort()).toEqual([
      'adSpend',
      'dropshipper',
      'rating',
      'revenue',
      'visits',
    ]);
    expect(res.body.models.revenue.fields).toContain('monthlyRevenueUsd');
    expect(res.body.models.visits.inputs).toContainEqual({ name: 'productCount', value: 3 });
    for (const field of [
      'domain',
      'monthlyVisits',
      'isDropshipper',
      'serviceRating',
      'serviceGrade',
      'vertical',
      'countryCode',
    ]) {
      expect(res.body).toHaveProperty(field);
    }
  });

  it('accepts a full URL with scheme and www, URL-encoded in the path', async () => {
    const res = await rest.get(`/v1/stores/${encodeURIComponent('https://www.acme-apparel.com')}`);
    expect(res.status).toBe(200);
    expect(res.body.domain).toBe('acme-apparel.com');
    const products = await rest.get(
      `/v1/stores/${encodeURIComponent('https://www.acme-apparel.com/')}/products`,
    );
    expect(products.status).toBe(200);
    expect(products.body.page.total).toBe(3);
  });

  it('answers a store missing from the catalog with the not_found envelope and 404', async () => {
    for (const path of [
      '/v1/stores/not-in-catalog.com',
      '/v1/stores/not-in-catalog.com/products',
      '/v1/stores/not-in-catalog.com/history',
      '/v1/stores/not-in-catalog.com/traffic',
      '/v1/stores/not-in-catalog.com/apps',
    ]) {
      const res = await rest.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({
        error: {
          code: 'not_found',
          message: expect.any(String),
          details: { domain: 'not-in-catalog.com' },
        },
      });
    }
  });

  it('answers a value that is not a domain with bad_request naming domain', async () => {
    const res = await rest.get('/v1/stores/not%20a%20domain');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', details: { parameter: 'domain' } });
  });

  it('lists the store products, best sellers first, and filters on isBestSeller', async () => {
    const all = await rest.get('/v1/stores/acme-apparel.com/products');
    expect(all.body.page).toEqual({ limit: 20, offset: 0, count: 3, hasMore: false, total: 3 });
    expect(all.body.data.map((p: { handle: string }) => p.handle)).toEqual([
      'classic-hoodie',
      'everyday-tee',
      'canvas-tote',
    ]);
    const best = await rest.get('/v1/stores/acme-apparel.com/products?isBestSeller=true&limit=1');
    expect(best.body.page).toEqual({ limit: 1, offset: 0, count: 1, hasMore: true, total: 2 });
    const others = await rest.get('/v1/stores/acme-apparel.com/products?isBestSeller=false');
    expect(others.body.data.map((p: { handle: string }) => p.handle)).toEqual(['canvas-tote']);
    expect(
      (await rest.get('/v1/stores/acme-apparel.com/products?limit=101')).body.error.details
        .parameter,
    ).toBe('limit');
  });

  it('lists daily snapshots newest first and pages them', async () => {
    const res = await rest.get('/v1/stores/acme-apparel.com/history?limit=2');
    expect(res.body.page).toEqual({ limit: 2, offset: 0, count: 2, hasMore: true, total: 3 });
    expect(res.body.data[0]).toEqual({
      day: '2025-12-31',
      monthlyVisits: 120_000,
      monthlyRevenueUsd: { low: 50_000, high: 80_000 },
      serviceRating: 88,
      productCount: 3,
      // the fixture's history stands for the seed's: synthetic, not observed
      synthetic: true,
    });
    const rest2 = await rest.get('/v1/stores/acme-apparel.com/history?limit=2&offset=2');
    expect(rest2.body.data.map((h: { day: string }) => h.day)).toEqual(['2025-12-29']);
    expect(rest2.body.page.hasMore).toBe(false);
    const none = await rest.get('/v1/stores/cozy-nest.com/history');
    expect(none.body).toEqual({
      data: [],
      page: { limit: 20, offset: 0, count: 0, hasMore: false, total: 0 },
    });
  });

  it('returns the monthly traffic series with the latest mix, or an empty series and latest null', async () => {
    const acme = await rest.get('/v1/stores/acme-apparel.com/traffic');
    expect(acme.body.latest).toEqual(EXPECTED.acmeLatestTraffic);
    expect(acme.body.page).toEqual({ limit: 20, offset: 0, count: 3, hasMore: false, total: 3 });
    expect(acme.body.data.map((point: { month: string }) => point.month)).toEqual([
      '2025-12-01',
      '2025-11-01',
      '2025-10-01',
    ]);
    expect(acme.body.data[0]).toMatchObject({
      visits: 120_000,
      organic: 0.45,
      source: 'similarweb',
    });
    const cozy = await rest.get('/v1/stores/cozy-nest.com/traffic');
    expect(cozy.status).toBe(200);
    expect(cozy.body).toEqual({
      data: [],
      page: { limit: 20, offset: 0, count: 0, hasMore: false, total: 0 },
      latest: null,
    });
  });

  it('lists the app stack in the list envelope, paged with limit and offset like every list (spec part 4)', async () => {
    const res = await rest.get('/v1/stores/acme-apparel.com/apps');
    expect(res.body.page).toEqual({ limit: 20, offset: 0, count: 3, hasMore: false, total: 3 });
    expect(res.body.data.map((app: { slug: string }) => app.slug)).toEqual(EXPECTED.acmeApps);
    const paged = await rest.get('/v1/stores/acme-apparel.com/apps?limit=2&offset=1');
    expect(paged.body.page).toEqual({ limit: 2, offset: 1, count: 2, hasMore: false, total: 3 });
    expect(paged.body.data.map((app: { slug: string }) => app.slug)).toEqual(
      EXPECTED.acmeApps.slice(1),
    );
    const first = await rest.get('/v1/stores/acme-apparel.com/apps?limit=1');
    expect(first.body.page).toEqual({ limit: 1, offset: 0, count: 1, hasMore: true, total: 3 });
    const tooMany = await rest.get('/v1/stores/acme-apparel.com/apps?limit=101');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details.parameter).toBe('limit');
  });
});

describe('GET /v1/stores/compare', () => {
  let rest: RestApp;
  beforeAll(async () => {
    rest = await openRestApp({ fixture: true });
  });
  afterAll(async () => {
    await rest?.close();
  });

  it('returns cards in the order asked and lists missing domains in notFound, never 404', async () => {
    const res = await rest.get(
      '/v1/stores/compare?domains=glow-skin.com,not-in-catalog.com,https://www.acme-apparel.com',
    );
    expect(res.status).toBe(200);
    expect(domainsOf(res.body)).toEqual(['glow-skin.com', 'acme-apparel.com']);
    expect(res.body.notFound).toEqual(['not-in-catalog.com']);
    for (const card of res.body.data) expect(Object.keys(card).sort()).toEqual(CARD_FIELDS);

    const noneFound = await rest.get('/v1/stores/compare?domains=a-missing.com,b-missing.com');
    expect(noneFound.status).toBe(200);
    expect(noneFound.body).toEqual({ data: [], notFound: ['a-missing.com', 'b-missing.com'] });
  });

  it('takes 2 to 8 domains', async () => {
    const eight = EXPECTED.byRevenue.slice(0, 8).join(',');
    const ok = await rest.get(`/v1/stores/compare?domains=${eight}`);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toHaveLength(8);
    for (const domains of [
      EXPECTED.byRevenue.slice(0, 9).join(','),
      'acme-apparel.com',
      '',
      ',,',
    ]) {
      const res = await rest.get(`/v1/stores/compare?domains=${domains}`);
      expect(res.status, domains).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'bad_request',
        details: { parameter: 'domains' },
      });
    }
    const missing = await rest.get('/v1/stores/compare');
    expect(missing.body.error.details).toMatchObject({
      parameter: 'domains',
      rule: expect.stringContaining('is required'),
    });
  });
});
