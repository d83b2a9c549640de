// GET /v1/apps/{slug}/trend and GET /v1/analytics/apps over HTTP (the real server, access layer
// included) on a catalog made by hand over the previous and the current month: the numbers worked out
// below, the contract's error envelope, the quota bucket each is charged in (shared with GraphQL), and
// the same answer for every account (catalog data: nothing of one account shows in another's).
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildAppTrendRollups } from '../../src/apps/app-trend-rollups.ts';
import { bearer, mintKey, startAccessServer, type AccessServer } from '../access/access-server.ts';
import { responseValidator, templateOf } from '../rest/support/openapi-validation.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

const LIMITS = {
  starter: {
    perMinute: 1_000,
    perKeyDaily: 1_000,
    daily: { storeSearches: 5, storeLookups: 1_000, productSearches: 1_000, productAppLookups: 6 },
  },
};

const DAY_MS = 86_400_000;
const now = new Date();
const current = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
const day = (first: Date, n: number) => new Date(first.getTime() + n * DAY_MS);
const ymd = (d: Date) => d.toISOString().slice(0, 10);

let db: TestDatabase;
let server: AccessServer;
let validate: ReturnType<typeof responseValidator>;
let templates: string[];

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startAccessServer(db.url, { PLAN_LIMITS_JSON: JSON.stringify(LIMITS) });
  const pool = server.services.db.pool;
  const { rows: apps } = await pool.query<{ id: number }>(
    `INSERT INTO apps (slug, name, category) VALUES ('trend-http-a', 'Trend Http A', 'Http fixture'),
       ('trend-http-b', 'Trend Http B', 'Http fixture') RETURNING id`,
  );
  const [a, b] = apps.map((r) => r.id);
  const { rows: stores } = await pool.query<{ id: number }>(
    `INSERT INTO stores (domain, name, vertical, country_code, first_seen_at) VALUES
       ('h1.trend.test', 'h1', 'Apparel', 'US', $1), ('h2.trend.test', 'h2', 'Beauty', 'DE', $2),
       ('h3.trend.test', 'h3', 'Apparel', 'US', $3) RETURNING id`,
    [day(previous, 1), day(previous, 2), current],
  );
  const [h1, h2, h3] = stores.map((r) => r.id);
  const period = (store: number, app: number, at: Date, seen: boolean, until: Date | null) =>
    pool.query(
      `INSERT INTO store_app_periods (store_id, app_id, installed_at, uninstalled_at, seen_installing) VALUES ($1, $2, $3, $4, $5)`,
      [store, app, at, until, seen],
    );
  await period(h1!, a!, day(previous, 1), false, null); // running when first seen
  await period(h2!, a!, day(previous, 3), true, current); // installed, then dropped
  await period(h3!, a!, current, true, null); // installed
  await period(h1!, b!, day(previous, 1), false, null);
  await rebuildAppTrendRollups(pool);

  const document = (
    await server.app.inject({ method: 'GET', url: '/v1/openapi.json' })
  ).json() as OpenAPIObject;
  validate = responseValidator(document);
  templates = Object.keys(document.paths ?? {});
});
afterAll(async () => {
  await server?.close();
  await db?.drop();
});

async function get(url: string, key?: string) {
  const res = await server.app.inject({ method: 'GET', url, headers: key ? bearer(key) : {} });
  const body = res.json();
  const template = templateOf(templates, url);
  if (template) expect(validate('get', template, res.statusCode, body), url).toEqual([]);
  return { status: res.statusCode, body, headers: res.headers };
}

const trendMonth = (
  first: Date,
  installs: number,
  newlyObserved: number,
  uninstalls: number,
  installBase: number,
  observedStores: number,
) => ({
  month: ymd(first),
  installs,
  newlyObserved,
  uninstalls,
  net: installs - uninstalls,
  installBase,
  observedStores,
  share: installBase / observedStores,
});

describe('GET /v1/apps/{slug}/trend', () => {
  it('answers each month, oldest first, whole catalog and by country', async () => {
    const key = await mintKey(server);
    const all = await get('/v1/apps/trend-http-a/trend?months=2', key);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({
      app: { slug: 'trend-http-a' },
      vertical: null,
      countryCode: null,
    });
    expect(all.body.months).toEqual([
      trendMonth(previous, 1, 1, 0, 2, 2),
      trendMonth(current, 1, 0, 1, 2, 3),
    ]);
    const us = await get('/v1/apps/trend-http-a/trend?months=2&countryCode=us', key);
    expect(us.body.countryCode).toBe('US');
    expect(us.body.months).toEqual([
      trendMonth(previous, 0, 1, 0, 1, 1),
      trendMonth(current, 1, 0, 0, 2, 2),
    ]);
    const twelve = await get('/v1/apps/trend-http-a/trend', key);
    expect(twelve.body.months).toHaveLength(12);
    expect(twelve.body.months.at(-1)).toEqual(trendMonth(current, 1, 0, 1, 2, 3));
  });

  it('refuses a bad months or countryCode, an unknown parameter and an unknown app in the envelope', async () => {
    const key = await mintKey(server);
    for (const [query, parameter] of [
      ['months=0', 'months'],
      ['months=25', 'months'],
      ['months=1.5', 'months'],
      ['countryCode=USA', 'countryCode'],
      ['sort=month', 'sort'],
    ] as const) {
      const res = await get(`/v1/apps/trend-http-a/trend?${query}`, key);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'bad_request', details: { parameter } });
    }
    const missing = await get('/v1/apps/no-such-app/trend', key);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({
      code: 'not_found',
      details: { slug: 'no-such-app' },
    });
    const anonymous = await get('/v1/apps/trend-http-a/trend');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('unauthorized');
  });
});

describe('GET /v1/analytics/apps', () => {
  it('ranks the apps of a category by install base, with share and 90-day net change', async () => {
    const key = await mintKey(server);
    const res = await get('/v1/analytics/apps?category=http%20FIXTURE', key);
    expect(res.status).toBe(200);
    expect(
      res.body.data.map((r: { app: { slug: string } }) => ({ ...r, app: r.app.slug })),
    ).toEqual([
      {
        app: 'trend-http-a',
        installBase: 2,
        share: 2 / 3,
        installs90d: 2,
        uninstalls90d: 1,
        netChange90d: 1,
      },
      {
        app: 'trend-http-b',
        installBase: 1,
        share: 1 / 3,
        installs90d: 0,
        uninstalls90d: 0,
        netChange90d: 0,
      },
    ]);
    expect(res.body.page).toEqual({ limit: 20, offset: 0, count: 2, hasMore: false, total: 2 });
    const second = await get('/v1/analytics/apps?category=Http%20fixture&limit=1&offset=1', key);
    expect(second.body.data.map((r: { app: { slug: string } }) => r.app.slug)).toEqual([
      'trend-http-b',
    ]);
  });

  it('answers an unknown category with an empty list and a missing one with bad_request', async () => {
    const key = await mintKey(server);
    const unknown = await get('/v1/analytics/apps?category=Nothing', key);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({
      data: [],
      page: { limit: 20, offset: 0, count: 0, hasMore: false, total: 0 },
    });
    const missing = await get('/v1/analytics/apps', key);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({
      code: 'bad_request',
      details: { parameter: 'category' },
    });
  });
});

describe('quota and accounts', () => {
  it("charges the trend as an app lookup and the ranking as market analytics, per account, GraphQL's fields too", async () => {
    const key = await mintKey(server, { accountExternalId: 'trend-quota' });
    const other = await mintKey(server, { accountExternalId: 'trend-other' });
    for (let i = 0; i < 5; i++)
      expect((await get('/v1/apps/trend-http-a/trend?months=1', key)).status).toBe(200);
    const graphql = await server.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', ...bearer(key) },
      payload: {
        query:
          '{ appTrend(slug: "trend-http-a", months: 1) { months { installBase } } appRanking(category: "Http fixture") { totalCount } }',
      },
    });
    expect(graphql.json()).toMatchObject({
      data: { appTrend: { months: [{ installBase: 2 }] }, appRanking: { totalCount: 2 } },
    });
    const refused = await get('/v1/apps/trend-http-a/trend?months=1', key);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      code: 'rate_limited',
      details: { bucket: 'productAppLookups', limit: 6, window: 'day' },
    });
    // the ranking is in its own bucket: 1 used by GraphQL, 4 left
    for (let i = 0; i < 4; i++)
      expect((await get('/v1/analytics/apps?category=Http%20fixture', key)).status).toBe(200);
    expect((await get('/v1/analytics/apps?category=Http%20fixture', key)).body.error).toMatchObject(
      { code: 'rate_limited', details: { bucket: 'storeSearches' } },
    );
    // another account: its own buckets, the same catalog answer
    const elsewhere = await get('/v1/apps/trend-http-a/trend?months=2', other);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.months.at(-1)).toEqual(trendMonth(current, 1, 0, 1, 2, 3));
  });
});
