// The technology and catalog filters of GET /v1/stores (app, anyApp, notApp, theme, minProducts,
// maxProducts, firstSeenAfter, firstSeenBefore, tld) on the known catalog, alone and combined with
// the existing filters, every sort and the grouped mode. The expected pages come from the fixture
// itself, filtered and ordered here in plain TypeScript, so every combination has an independent
// answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_APPS, FIXTURE_STORES, type FixtureStore } from '../support/catalog-fixture.ts';
import { openRestApp, type RestApp } from './support/rest-app.ts';

let rest: RestApp;

/** themes set on the fixture for these tests; the rest have none */
const THEMES: Record<string, string> = {
  'acme-apparel.com': 'Dawn',
  'glow-skin.com': 'Dawn',
  'berlin-boots.de': 'Prestige',
  'dropfast.shop': 'Debut',
  'bella-beauty.co.uk': 'Prestige',
};
let ids: Record<string, number>;

beforeAll(async () => {
  rest = await openRestApp({ fixture: true });
  const pool = rest.services.db.pool;
  for (const [domain, theme] of Object.entries(THEMES))
    await pool.query(`UPDATE stores SET theme_name = $2 WHERE domain = $1`, [domain, theme]);
  const { rows } = await pool.query<{ domain: string; id: number }>(
    `SELECT domain, id FROM stores`,
  );
  ids = Object.fromEntries(rows.map((r) => [r.domain, r.id]));
});
afterAll(() => rest?.close());

const appsOf = (domain: string) =>
  FIXTURE_APPS.filter((app) => app.installs.includes(domain)).map((app) => app.slug);
const tldMatches = (domain: string, tld: string) => domain.endsWith(`.${tld}`);

interface Case {
  query: Record<string, string>;
  keep: (store: FixtureStore) => boolean;
}

/** each new filter with a value that keeps some stores and drops others */
const NEW_FILTERS: Case[] = [
  { query: { app: 'klaviyo' }, keep: (s) => appsOf(s.domain).includes('klaviyo') },
  {
    query: { app: 'klaviyo,judgeme' },
    keep: (s) => ['klaviyo', 'judgeme'].every((a) => appsOf(s.domain).includes(a)),
  },
  {
    query: { anyApp: 'gorgias,dsers' },
    keep: (s) => ['gorgias', 'dsers'].some((a) => appsOf(s.domain).includes(a)),
  },
  { query: { notApp: 'klaviyo' }, keep: (s) => !appsOf(s.domain).includes('klaviyo') },
  {
    query: { notApp: 'klaviyo,dsers' },
    keep: (s) => !['klaviyo', 'dsers'].some((a) => appsOf(s.domain).includes(a)),
  },
  { query: { theme: 'prestige' }, keep: (s) => THEMES[s.domain] === 'Prestige' },
  { query: { minProducts: '2' }, keep: (s) => s.productCount >= 2 },
  { query: { maxProducts: '2' }, keep: (s) => s.productCount <= 2 },
  {
    query: { minProducts: '1', maxProducts: '2' },
    keep: (s) => s.productCount >= 1 && s.productCount <= 2,
  },
  { query: { firstSeenAfter: '2024-06-01' }, keep: (s) => s.firstSeenAt >= '2024-06-01' },
  { query: { firstSeenBefore: '2024-06-01' }, keep: (s) => s.firstSeenAt < '2024-06-01' },
  {
    query: { firstSeenAfter: '2024-03-01', firstSeenBefore: '2024-09-01' },
    keep: (s) => s.firstSeenAt >= '2024-03-01' && s.firstSeenAt < '2024-09-01',
  },
  { query: { tld: 'co.uk' }, keep: (s) => tldMatches(s.domain, 'co.uk') },
  { query: { tld: 'uk' }, keep: (s) => tldMatches(s.domain, 'uk') },
  { query: { tld: '.COM' }, keep: (s) => tldMatches(s.domain, 'com') },
];

/** the filters that were there before, to combine with */
const EXISTING_FILTERS: Case[] = [
  { query: {}, keep: () => true },
  { query: { countryCode: 'us' }, keep: (s) => s.countryCode === 'US' },
  { query: { vertical: 'apparel' }, keep: (s) => s.vertical === 'Apparel' },
  { query: { industry: 'Health & Beauty' }, keep: (s) => s.industry === 'Health & Beauty' },
  { query: { category: 'skincare' }, keep: (s) => s.category === 'Skincare' },
  { query: { minVisits: '30000' }, keep: (s) => s.monthlyVisits >= 30_000 },
  { query: { maxVisits: '60000' }, keep: (s) => s.monthlyVisits <= 60_000 },
  { query: { minRevenue: '20000' }, keep: (s) => s.revenueHighUsd >= 20_000 },
  { query: { isDropshipper: 'false' }, keep: (s) => !s.isDropshipper },
];

type Order = (a: FixtureStore, b: FixtureStore) => number;
const byId: Order = (a, b) => ids[a.domain]! - ids[b.domain]!;
const SORTS: Record<string, Order> = {
  revenue: (a, b) =>
    b.revenueHighUsd - a.revenueHighUsd || b.monthlyVisits - a.monthlyVisits || byId(a, b),
  visits: (a, b) => b.monthlyVisits - a.monthlyVisits || byId(a, b),
  rating: (a, b) =>
    b.serviceRating - a.serviceRating || b.monthlyVisits - a.monthlyVisits || byId(a, b),
  newest: (a, b) => b.firstSeenAt.localeCompare(a.firstSeenAt) || byId(b, a),
};

const url = (path: string, query: Record<string, string>) =>
  `${path}?${new URLSearchParams(query).toString()}`;

describe('GET /v1/stores: technology and catalog filters', () => {
  it('each filter, combined with each existing filter, under every sort, lists exactly the matching stores in order', async () => {
    for (const added of NEW_FILTERS) {
      for (const existing of EXISTING_FILTERS) {
        for (const [sort, order] of Object.entries(SORTS)) {
          const query = { ...added.query, ...existing.query, sort, limit: '100' };
          const expected = FIXTURE_STORES.filter((s) => added.keep(s) && existing.keep(s))
            .sort(order)
            .map((s) => s.domain);
          const res = await rest.get(url('/v1/stores', query));
          expect(res.status, JSON.stringify(query)).toBe(200);
          expect(
            res.body.data.map((s: { domain: string }) => s.domain),
            JSON.stringify(query),
          ).toEqual(expected);
          expect(res.body.page.total, JSON.stringify(query)).toBe(expected.length);
        }
      }
    }
  });

  it('pages a filtered list with limit and offset', async () => {
    const expected = FIXTURE_STORES.filter((s) => !appsOf(s.domain).includes('klaviyo'))
      .sort(SORTS.visits!)
      .map((s) => s.domain);
    const first = await rest.get('/v1/stores?notApp=klaviyo&sort=visits&limit=3');
    const second = await rest.get('/v1/stores?notApp=klaviyo&sort=visits&limit=3&offset=3');
    expect(first.body.page).toEqual({
      limit: 3,
      offset: 0,
      count: 3,
      hasMore: true,
      total: expected.length,
    });
    expect(
      [...first.body.data, ...second.body.data].map((s: { domain: string }) => s.domain),
    ).toEqual(expected.slice(0, 6));
  });

  it('rolls the filtered stores up by each grouping', async () => {
    for (const added of NEW_FILTERS) {
      for (const existing of EXISTING_FILTERS.slice(0, 3)) {
        const kept = FIXTURE_STORES.filter((s) => added.keep(s) && existing.keep(s));
        const counts = new Map<string, number>();
        for (const s of kept) counts.set(s.countryCode, (counts.get(s.countryCode) ?? 0) + 1);
        const query = { ...added.query, ...existing.query, groupBy: 'country', limit: '100' };
        const res = await rest.get(url('/v1/stores', query));
        expect(res.status, JSON.stringify(query)).toBe(200);
        expect(res.body.meta.mode).toBe('grouped');
        const rows = Object.fromEntries(
          res.body.data.map((row: { key: string; stores: number }) => [row.key, row.stores]),
        );
        expect(rows, JSON.stringify(query)).toEqual(Object.fromEntries(counts));
      }
    }
  });

  it('matches nothing for an app the catalog does not have under app or anyApp, and excludes nothing under notApp', async () => {
    expect((await rest.get('/v1/stores?app=klaviyo,no-such-app')).body.page.total).toBe(0);
    expect((await rest.get('/v1/stores?anyApp=no-such-app')).body.page.total).toBe(0);
    expect((await rest.get('/v1/stores?anyApp=no-such-app,dsers')).body.page.total).toBe(2);
    expect((await rest.get('/v1/stores?notApp=no-such-app')).body.page.total).toBe(
      FIXTURE_STORES.length,
    );
  });

  it('refuses malformed filter values with bad_request naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['app=', 'app'],
      ['app=Klaviyo Email', 'app'],
      ['anyApp=a,b,c,d,e,f,g,h,i,j,k', 'anyApp'],
      ['notApp=,', 'notApp'],
      ['minProducts=-1', 'minProducts'],
      ['maxProducts=two', 'maxProducts'],
      ['minProducts=5&maxProducts=2', 'minProducts'],
      ['firstSeenAfter=2024-02-30', 'firstSeenAfter'],
      ['firstSeenBefore=yesterday', 'firstSeenBefore'],
      ['firstSeenAfter=2024-06-01&firstSeenBefore=2024-06-01', 'firstSeenBefore'],
      ['tld=.', 'tld'],
      ['tld=co..uk', 'tld'],
      ['tld=%25', 'tld'],
      ['theme=', 'theme'],
    ];
    for (const [query, parameter] of cases) {
      const res = await rest.get(`/v1/stores?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe('bad_request');
      expect(res.body.error.details.parameter, query).toBe(parameter);
    }
  });
});
