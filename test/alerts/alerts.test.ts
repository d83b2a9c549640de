// Saved searches that alert, over HTTP: POST/GET /v1/alerts, GET /v1/alerts/{id}/matches and
// DELETE /v1/alerts/{id} in the contract's envelopes, scoped to the key's account (another
// account's alert is not_found), within the plan's number of alerts, validated like GET /v1/stores;
// and matches recorded by the observation writer when a store newly matches, once per alert and store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HARNESS_START,
  startSignalsHarness,
  type SignalsHarness,
} from '../signals/support/signals-harness.ts';
import { observe, partitionsFor } from './support.ts';

let h: SignalsHarness;
let alice: string;
let bob: string;
let starter: string;

// observations on the harness clock's day, whose history partitions the worker's upkeep keeps
const at = (minutes: number) => new Date(HARNESS_START.getTime() + minutes * 60_000);

beforeAll(async () => {
  h = await startSignalsHarness({
    appCatalog: true,
    env: { PLAN_LIMITS_JSON: JSON.stringify({ starter: { alerts: 2 } }) },
  });
  alice = await h.mintKey({ account: 'alerts-alice' });
  bob = await h.mintKey({ account: 'alerts-bob' });
  starter = await h.mintKey({ account: 'alerts-starter', plan: 'starter' });
  await partitionsFor(h.services);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const create = (key: string, body: unknown) => h.request('POST', '/v1/alerts', { key, body });

describe('alert routes', () => {
  it('creates, lists, pages matches and deletes in the contract envelopes', async () => {
    const created = await create(alice, {
      name: 'Judge.me in France',
      filter: { app: 'judgeme', countryCode: 'FR', minVisits: '0', firstSeenAfter: '2020-01-01' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Judge.me in France',
      filter: { app: 'judgeme', countryCode: 'FR', minVisits: 0, firstSeenAfter: '2020-01-01' },
      callbackUrl: null,
      createdAt: expect.any(String),
      matchCount: 0,
      links: { matches: `/v1/alerts/${created.body.id}/matches` },
    });
    const list = await h.request('GET', '/v1/alerts', { key: alice });
    expect(list.status).toBe(200);
    expect(list.body.page).toEqual({ limit: 20, offset: 0, count: 1, hasMore: false, total: 1 });
    expect(list.body.data).toEqual([created.body]);

    const matches = await h.request('GET', `/v1/alerts/${created.body.id}/matches`, { key: alice });
    expect(matches.status).toBe(200);
    expect(matches.body).toEqual({
      data: [],
      page: { limit: 20, offset: 0, count: 0, hasMore: false, total: 0 },
    });

    const deleted = await h.request('DELETE', `/v1/alerts/${created.body.id}`, { key: alice });
    expect(deleted).toMatchObject({ status: 200, body: { id: created.body.id, deleted: true } });
    const gone = await h.request('GET', `/v1/alerts/${created.body.id}/matches`, { key: alice });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatchObject({ code: 'not_found' });
  });

  it("answers another account's alert as not_found and lists only the key's own", async () => {
    const { body: mine } = await create(alice, { name: 'mine', filter: { vertical: 'Beauty' } });
    for (const [method, url] of [
      ['GET', `/v1/alerts/${mine.id}/matches`],
      ['DELETE', `/v1/alerts/${mine.id}`],
    ] as const) {
      const answer = await h.request(method, url, { key: bob });
      expect(answer.status, `${method} ${url}`).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
    expect((await h.request('GET', '/v1/alerts', { key: bob })).body.data).toEqual([]);
    // still there for its owner
    expect((await h.request('GET', `/v1/alerts/${mine.id}/matches`, { key: alice })).status).toBe(
      200,
    );
    await h.request('DELETE', `/v1/alerts/${mine.id}`, { key: alice });
  });

  it('validates the filter with the store search parameters and refuses non-filters', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'x', filter: { minVisits: -1 } }, 'filter.minVisits'],
      [{ name: 'x', filter: { minVisits: 'many' } }, 'filter.minVisits'],
      [{ name: 'x', filter: { app: 'Not A Slug!' } }, 'filter.app'],
      [{ name: 'x', filter: { countryCode: 'USA' } }, 'filter.countryCode'],
      [{ name: 'x', filter: { firstSeenAfter: '2026-13-01' } }, 'filter.firstSeenAfter'],
      [{ name: 'x', filter: { minVisits: 10, maxVisits: 5 } }, 'filter.minVisits'],
      [{ name: 'x', filter: { vertical: 'Beauty', sort: 'visits' } }, 'filter.sort'],
      [{ name: 'x', filter: { vertical: 'Beauty', groupBy: 'country' } }, 'filter.groupBy'],
      [{ name: 'x', filter: { vertical: 'Beauty', limit: 5 } }, 'filter.limit'],
      [{ name: 'x', filter: { vertical: 'Beauty', nonsense: 1 } }, 'filter.nonsense'],
      [{ name: 'x', filter: {} }, 'filter'],
      [{ name: 'x' }, 'filter'],
      [{ name: '', filter: { vertical: 'Beauty' } }, 'name'],
      [
        { name: 'x', filter: { vertical: 'Beauty' }, callbackUrl: 'http://hooks.test/a' },
        'callbackUrl',
      ],
      [{ name: 'x', filter: { vertical: 'Beauty' }, extra: true }, 'extra'],
    ];
    for (const [body, parameter] of cases) {
      const answer = await create(alice, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('bad_request');
      expect(answer.body.error.details.parameter, JSON.stringify(body)).toBe(parameter);
    }
    expect(
      (await create(alice, { name: 'x', filter: { sort: 'visits' } })).body.error.details.rule,
    ).toMatch(/not a filter/);
    expect((await h.request('GET', '/v1/alerts', { key: alice })).body.data).toEqual([]);
  });

  it('pages and checks query and path parameters like every list', async () => {
    for (const [url, parameter] of [
      ['/v1/alerts?limit=101', 'limit'],
      ['/v1/alerts?offset=-1', 'offset'],
      ['/v1/alerts?sort=name', 'sort'],
      ['/v1/alerts/abc/matches', 'id'],
      ['/v1/alerts/1/matches?limit=0', 'limit'],
    ] as const) {
      const answer = await h.request('GET', url, { key: alice });
      expect(answer.status, url).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'bad_request', details: { parameter } });
    }
  });

  it("refuses an alert past the plan's number: HTTP 409, bad_request with reason alert_limit", async () => {
    const ids: number[] = [];
    for (const n of [1, 2]) {
      const answer = await create(starter, { name: `a${n}`, filter: { vertical: 'Beauty' } });
      expect(answer.status).toBe(201);
      ids.push(answer.body.id);
    }
    const refused = await create(starter, { name: 'a3', filter: { vertical: 'Beauty' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'bad_request',
      details: { reason: 'alert_limit', plan: 'starter', limit: 2 },
    });
    // another plan's account is not affected; deleting one frees a place
    expect((await create(bob, { name: 'b', filter: { vertical: 'Beauty' } })).status).toBe(201);
    await h.request('DELETE', `/v1/alerts/${ids[0]}`, { key: starter });
    expect((await create(starter, { name: 'a3', filter: { vertical: 'Beauty' } })).status).toBe(
      201,
    );
  });

  it('counts against the per-minute rate and per-key ceiling, never a daily bucket', async () => {
    const key = await h.mintKey({ account: 'alerts-quota', plan: 'starter' });
    const created = await create(key, { name: 'q', filter: { vertical: 'Beauty' } });
    expect(created.headers['x-ratelimit-limit']).toBeDefined();
    await h.request('GET', '/v1/alerts', { key });
    await h.request('GET', `/v1/alerts/${created.body.id}/matches`, { key });
    const usage = await h.request('GET', '/v1/usage', { key });
    const byName = Object.fromEntries(usage.body.limits.map((l: { name: string }) => [l.name, l]));
    expect(byName).toMatchObject({
      perMinute: { used: 3 },
      perKeyDaily: { used: 3 },
      storeSearches: { used: 0 },
      storeLookups: { used: 0 },
      productSearches: { used: 0 },
      productAppLookups: { used: 0 },
      scrapeRequests: { used: 0 },
    });
    const unauthenticated = await h.request('GET', '/v1/alerts');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body.error.code).toBe('unauthorized');
  });
});

describe('alerts in GraphQL', () => {
  const graphql = async (key: string, query: string, variables: Record<string, unknown> = {}) =>
    (
      await h.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { authorization: `Bearer ${key}` },
        payload: { query, variables },
      })
    ).json();

  it('creates with a StoreFilter, reads its own alert, and answers another account with null and not_found', async () => {
    const created = await graphql(
      alice,
      `mutation ($filter: StoreFilter!) { createAlert(name: "gql", filter: $filter) { alertId name filter matchCount } }`,
      { filter: { app: ['judgeme'], minVisits: 5 } },
    );
    expect(created.errors).toBeUndefined();
    const { alertId: id } = created.data.createAlert;
    expect(created.data.createAlert).toEqual({
      alertId: id,
      name: 'gql',
      filter: { app: ['judgeme'], minVisits: 5 },
      matchCount: 0,
    });
    const query = `query ($id: Int!) { alert(id: $id) { alertId matches(first: 5) { totalCount } } alerts { totalCount } }`;
    const mine = await graphql(alice, query, { id });
    expect(mine.data.alert).toEqual({ alertId: id, matches: { totalCount: 0 } });
    const theirs = await graphql(bob, query, { id });
    expect(theirs.data.alert).toBeNull();
    expect(theirs.errors[0].extensions.code).toBe('not_found');
    // a filter the store search refuses is refused here too
    const invalid = await graphql(
      alice,
      `mutation { createAlert(name: "bad", filter: { minVisits: -1 }) { id } }`,
    );
    expect(invalid.errors[0].extensions.code).toBe('bad_request');
    const deleted = await graphql(bob, `mutation ($id: Int!) { deleteAlert(id: $id) { id } }`, {
      id,
    });
    expect(deleted.errors[0].extensions.code).toBe('not_found');
    await graphql(alice, `mutation ($id: Int!) { deleteAlert(id: $id) { id } }`, { id });
  });
});

describe('alert matches', () => {
  it('records a store that newly matches once, and never one that matched at creation', async () => {
    const pool = h.services.db.pool;
    // before the alert: one store without Judge.me, one already running it
    await observe(pool, { domain: 'later.test', apps: ['klaviyo-email-marketing'] }, at(1));
    await observe(pool, { domain: 'already.test', apps: ['judgeme'] }, at(2));

    const { body: alert } = await create(alice, { name: 'judge.me', filter: { app: 'judgeme' } });
    const { body: french } = await create(alice, {
      name: 'judge.me in France',
      filter: { app: 'judgeme', countryCode: 'FR' },
    });
    const matchesOf = async (id: number) =>
      (await h.request('GET', `/v1/alerts/${id}/matches`, { key: alice })).body;

    await observe(
      pool,
      { domain: 'later.test', apps: ['klaviyo-email-marketing', 'judgeme'] },
      at(10),
    );
    await observe(pool, { domain: 'already.test', apps: ['judgeme'] }, at(11));
    expect((await matchesOf(alert.id)).data).toEqual([
      { domain: 'later.test', matchedAt: at(10).toISOString() },
    ]);

    // observed again with it: no second match; dropped and reinstalled: still the one match
    await observe(
      pool,
      { domain: 'later.test', apps: ['klaviyo-email-marketing', 'judgeme'] },
      at(12),
    );
    await observe(pool, { domain: 'later.test', apps: ['klaviyo-email-marketing'] }, at(13));
    await observe(
      pool,
      { domain: 'later.test', apps: ['klaviyo-email-marketing', 'judgeme'] },
      at(14),
    );
    // a store new to the catalog (a discovery) that matches on its first observation
    await observe(pool, { domain: 'found.test', apps: ['judgeme'] }, at(15));

    const page = await matchesOf(alert.id);
    expect(page.data).toEqual([
      { domain: 'found.test', matchedAt: at(15).toISOString() },
      { domain: 'later.test', matchedAt: at(10).toISOString() },
    ]);
    expect(page.page).toMatchObject({ total: 2, hasMore: false });
    const second = await h.request('GET', `/v1/alerts/${alert.id}/matches?limit=1&offset=1`, {
      key: alice,
    });
    expect(second.body.data).toEqual([{ domain: 'later.test', matchedAt: at(10).toISOString() }]);
    expect((await matchesOf(french.id)).data).toEqual([]);

    // a store that moves into France while running it matches the French alert then
    await observe(pool, { domain: 'already.test', apps: ['judgeme'], countryCode: 'FR' }, at(16));
    expect((await matchesOf(french.id)).data).toEqual([
      { domain: 'already.test', matchedAt: at(16).toISOString() },
    ]);
    // q: a store new to the catalog whose name words the vocabulary learns with this very observation
    const { body: named } = await create(alice, { name: 'zorblax', filter: { q: 'zorblax' } });
    await observe(pool, { domain: 'zorblax.test', apps: [] }, at(17));
    expect((await matchesOf(named.id)).data).toEqual([
      { domain: 'zorblax.test', matchedAt: at(17).toISOString() },
    ]);
    const { rows } = await pool.query(
      'SELECT alert_id, count(*)::int AS n FROM alert_matches WHERE alert_id = ANY($1) GROUP BY alert_id ORDER BY alert_id',
      [[alert.id, french.id]],
    );
    expect(rows).toEqual([
      { alert_id: alert.id, n: 2 },
      { alert_id: french.id, n: 1 },
    ]);
  });
});
