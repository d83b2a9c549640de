// POST /v1/stores/lookup and Query.lookupStores over HTTP: cards in the order asked, notFound,
// repeats answered once, moved stores answering under their old domain, CSV in and out, each store
// found charged as one storeLookups unit (all or nothing), and every malformed request a
// bad_request that charges nothing.
import { randomBytes } from 'node:crypto';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogFixture } from '../support/catalog-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { responseValidator } from '../rest/support/openapi-validation.ts';
import { bearer, mintKey, startAccessServer, type AccessServer } from '../access/access-server.ts';

const LOOKUPS_PER_DAY = 5;
const LIMITS = {
  starter: {
    perMinute: 1_000,
    perKeyDaily: 10_000,
    daily: { storeLookups: LOOKUPS_PER_DAY },
  },
};

/** The store card of spec part 2, by hand. */
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

describe('POST /v1/stores/lookup', () => {
  let db: TestDatabase;
  let server: AccessServer;
  let validate: ReturnType<typeof responseValidator>;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, { PLAN_LIMITS_JSON: JSON.stringify(LIMITS) });
    await loadCatalogFixture(server.services.db.pool, server.services.legacy);
    // glow-skin.com once answered at glow-skin-old.com
    await server.services.db.pool.query(
      `INSERT INTO store_moves (old_domain, store_id, new_domain, moved_at)
       SELECT 'glow-skin-old.com', id, domain, now() FROM stores WHERE domain = 'glow-skin.com'`,
    );
    const document = (
      await server.app.inject({ method: 'GET', url: '/v1/openapi.json' })
    ).json() as OpenAPIObject;
    validate = responseValidator(document);
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const newKey = () =>
    mintKey(server, { accountExternalId: `lookup-${randomBytes(4).toString('hex')}` });
  const lookup = async (
    key: string,
    payload: unknown,
    headers: Record<string, string> = {},
    query = '',
  ) => {
    const res = await server.app.inject({
      method: 'POST',
      url: `/v1/stores/lookup${query}`,
      headers: { ...bearer(key), ...headers },
      payload: payload as string,
    });
    if (String(res.headers['content-type']).startsWith('application/json')) {
      expect(validate('post', '/v1/stores/lookup', res.statusCode, res.json())).toEqual([]);
    }
    return res;
  };
  const json = (key: string, domains: unknown) => lookup(key, { domains });
  /** what the account's storeLookups bucket and the key's per-key ceiling have counted today */
  const used = async (key: string) => {
    const res = await server.app.inject({ method: 'GET', url: '/v1/usage', headers: bearer(key) });
    const limits = res.json().limits as Array<{ name: string; used: number }>;
    const of = (name: string) => limits.find((l) => l.name === name)?.used;
    return { storeLookups: of('storeLookups'), perKeyDaily: of('perKeyDaily') };
  };
  const domainsOf = (body: { data: Array<{ domain: string }> }) => body.data.map((s) => s.domain);

  it('answers the cards in the order asked and the unknown domains in notFound, charging each store found', async () => {
    const key = await newKey();
    const res = await json(key, [
      'berlin-boots.de',
      'not-in-catalog.com',
      'https://www.acme-apparel.com/collections/all',
      'glow-skin.com',
      'also-missing.co.uk',
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(domainsOf(body)).toEqual(['berlin-boots.de', 'acme-apparel.com', 'glow-skin.com']);
    expect(body.notFound).toEqual(['not-in-catalog.com', 'also-missing.co.uk']);
    expect(body.moved).toEqual([]);
    for (const card of body.data) expect(Object.keys(card).sort()).toEqual(CARD_FIELDS);
    // three stores found: three store lookups; the call itself counts once on the per-key ceiling
    expect(await used(key)).toEqual({ storeLookups: 3, perKeyDaily: 1 });
    expect(res.headers.ratelimit).toContain('"storeLookups";r=2;');
  });

  it('answers a repeat once, at its first position, and charges it once', async () => {
    const key = await newKey();
    const res = await json(key, [
      'Acme-Apparel.com',
      'glow-skin.com',
      'acme-apparel.com',
      'http://www.acme-apparel.com',
      'nowhere.example',
      'NOWHERE.example',
    ]);
    expect(res.statusCode).toBe(200);
    expect(domainsOf(res.json())).toEqual(['acme-apparel.com', 'glow-skin.com']);
    expect(res.json().notFound).toEqual(['nowhere.example']);
    expect((await used(key)).storeLookups).toBe(2);
  });

  it("answers a moved store's old domain with its card under the new domain, once with the new one", async () => {
    const key = await newKey();
    const res = await json(key, ['cozy-nest.com', 'glow-skin-old.com', 'glow-skin.com']);
    expect(res.statusCode).toBe(200);
    expect(domainsOf(res.json())).toEqual(['cozy-nest.com', 'glow-skin.com']);
    expect(res.json().moved).toEqual([{ requested: 'glow-skin-old.com', domain: 'glow-skin.com' }]);
    expect(res.json().notFound).toEqual([]);
    expect((await used(key)).storeLookups).toBe(2);
  });

  it('charges nothing for domains not found', async () => {
    const key = await newKey();
    const res = await json(key, ['a-missing.com', 'b-missing.com']);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [],
      notFound: ['a-missing.com', 'b-missing.com'],
      moved: [],
    });
    expect(await used(key)).toEqual({ storeLookups: 0, perKeyDaily: 1 });
  });

  it('refuses, whole, a lookup whose stores found exceed what is left of storeLookups, and charges nothing for it', async () => {
    const key = await mintKey(server, { accountExternalId: 'lookup-quota' });
    const three = ['acme-apparel.com', 'glow-skin.com', 'cozy-nest.com'];
    expect((await json(key, three)).statusCode).toBe(200);
    expect((await used(key)).storeLookups).toBe(3);

    // three more found, two left: refused as a whole
    const refused = await json(key, [
      'dropfast.shop',
      'berlin-boots.de',
      'tartan-tees.co.uk',
      'missing-one.com',
    ]);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({
      code: 'rate_limited',
      details: { bucket: 'storeLookups', limit: LOOKUPS_PER_DAY, window: 'day' },
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    expect((await used(key)).storeLookups).toBe(3);

    // exactly the two left still serve two stores found (and any number not found)
    const two = await json(key, [
      'dropfast.shop',
      'missing-one.com',
      'berlin-boots.de',
      'missing-two.com',
    ]);
    expect(two.statusCode).toBe(200);
    expect(domainsOf(two.json())).toEqual(['dropfast.shop', 'berlin-boots.de']);
    expect((await used(key)).storeLookups).toBe(LOOKUPS_PER_DAY);
    // with the bucket used up, a lookup finding nothing still answers; one finding a store does not
    expect((await json(key, ['missing-three.com'])).statusCode).toBe(200);
    expect((await json(key, ['acme-apparel.com'])).statusCode).toBe(429);
    // the bucket is the account's: its other key is refused too, another account is not
    const sameAccount = await mintKey(server, { accountExternalId: 'lookup-quota' });
    expect((await json(sameAccount, ['acme-apparel.com'])).statusCode).toBe(429);
    expect((await json(await newKey(), ['acme-apparel.com'])).statusCode).toBe(200);
  });

  it('answers CSV for Accept: text/csv or format=csv, one row per different domain asked, in order', async () => {
    const key = await newKey();
    const domains = [
      'glow-skin-old.com',
      'not-in-catalog.com',
      'acme-apparel.com',
      'ACME-apparel.com',
    ];
    const viaAccept = await lookup(key, { domains }, { accept: 'text/csv' });
    expect(viaAccept.statusCode, viaAccept.body).toBe(200);
    expect(viaAccept.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(viaAccept.headers['x-export-rows']).toBe('3');
    const lines = viaAccept.body.split('\r\n');
    expect(lines[0]).toBe(
      'requested,found,domain,monthlyVisits,monthlyRevenueUsd.low,monthlyRevenueUsd.high,isDropshipper,' +
        'serviceRating,serviceGrade,vertical,countryCode,traffic.latest.month,traffic.latest.organic,' +
        'traffic.latest.paid,traffic.latest.social,traffic.latest.direct,traffic.latest.referral,' +
        'traffic.latest.source,sources',
    );
    expect(lines[1]).toMatch(/^glow-skin-old\.com,true,glow-skin\.com,\d+,/);
    expect(lines[2]).toBe(`not-in-catalog.com,false${','.repeat(17)}`);
    expect(lines[3]).toMatch(/^acme-apparel\.com,true,acme-apparel\.com,\d+,/);
    expect(lines[4]).toBe('#export rows=3 total=3 complete=true');
    expect(lines[5]).toBe('');

    // the export charged its two stores found, as JSON would
    expect((await used(key)).storeLookups).toBe(2);

    const viaFormat = await lookup(await newKey(), { domains }, {}, '?format=csv');
    expect(viaFormat.body).toBe(viaAccept.body);
    // RFC 9110: JSON preferred over CSV by q-value answers JSON
    const preferJson = await lookup(
      await newKey(),
      { domains },
      {
        accept: 'text/csv;q=0.5, application/json',
      },
    );
    expect(preferJson.headers['content-type']).toMatch(/^application\/json/);
    const ndjson = await lookup(await newKey(), { domains }, {}, '?format=ndjson');
    expect(
      ndjson.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).requested ?? 'end'),
    ).toEqual(['glow-skin-old.com', 'not-in-catalog.com', 'acme-apparel.com', 'end']);
  });

  it('takes a text/csv body: one column of domains, with or without a domain header', async () => {
    const key = await newKey();
    const csv = (text: string) => lookup(key, text, { 'content-type': 'text/csv; charset=utf-8' });
    for (const text of [
      // a spreadsheet's UTF-8 export starts with a byte order mark
      '\uFEFFdomain\r\nglow-skin.com\r\nnot-in-catalog.com\r\n',
      'domain\r\nglow-skin.com\r\nnot-in-catalog.com\r\n',
      'glow-skin.com\nnot-in-catalog.com\n\n',
      'Domain\n"https://www.glow-skin.com/"\nnot-in-catalog.com',
      'name,domain\n"Glow, Skin",glow-skin.com\nNobody,not-in-catalog.com\n',
    ]) {
      const res = await csv(text);
      expect(res.statusCode, `${text}: ${res.body}`).toBe(200);
      expect(domainsOf(res.json()), text).toEqual(['glow-skin.com']);
      expect(res.json().notFound, text).toEqual(['not-in-catalog.com']);
    }
    // CSV in, CSV out
    const both = await lookup(await newKey(), 'domain\nglow-skin.com\n', {
      'content-type': 'text/csv',
      accept: 'text/csv',
    });
    expect(both.body.split('\r\n')[1]).toMatch(/^glow-skin\.com,true,glow-skin\.com,/);
  });

  describe('bad requests: a bad_request naming the problem, charging nothing', () => {
    const cases: Array<{
      name: string;
      payload: unknown;
      headers?: Record<string, string>;
      query?: string;
      parameter: string;
      rule?: RegExp;
    }> = [
      {
        name: 'more than 100 domains',
        payload: { domains: Array.from({ length: 101 }, (_, i) => `shop-${i}.com`) },
        parameter: 'domains',
        rule: /1 to 100 domains/,
      },
      { name: 'an empty list', payload: { domains: [] }, parameter: 'domains', rule: /1 to 100/ },
      { name: 'no domains', payload: {}, parameter: 'domains', rule: /is required/ },
      { name: 'domains not a list', payload: { domains: 'glow-skin.com' }, parameter: 'domains' },
      {
        name: 'a malformed domain',
        payload: { domains: ['glow-skin.com', 'not a domain'] },
        parameter: 'domains',
        rule: /item 2 \("not a domain"\) must not contain spaces/,
      },
      {
        name: 'an IP address',
        payload: { domains: ['10.0.0.1'] },
        parameter: 'domains',
        rule: /not an IP address/,
      },
      {
        name: 'a name without a dot',
        payload: { domains: ['localhost'] },
        parameter: 'domains',
        rule: /dot/,
      },
      {
        name: 'an unknown field',
        payload: { domains: ['glow-skin.com'], limit: 5 },
        parameter: 'limit',
        rule: /unknown field; the body accepts: domains/,
      },
      { name: 'a JSON array body', payload: ['glow-skin.com'], parameter: 'body' },
      {
        name: 'a wrong content type',
        payload: 'glow-skin.com',
        headers: { 'content-type': 'text/plain' },
        parameter: 'body',
        rule: /Content-Type/,
      },
      {
        name: 'an empty CSV body',
        payload: 'domain\n',
        headers: { 'content-type': 'text/csv' },
        parameter: 'domains',
      },
      {
        name: 'a CSV of several columns without a domain header',
        payload: 'glow-skin.com,Glow\nacme-apparel.com,Acme\n',
        headers: { 'content-type': 'text/csv' },
        parameter: 'body',
        rule: /one column of domains/,
      },
      {
        name: 'an unknown query parameter',
        payload: { domains: ['glow-skin.com'] },
        query: '?limit=5',
        parameter: 'limit',
      },
      {
        name: 'an unknown format',
        payload: { domains: ['glow-skin.com'] },
        query: '?format=xml',
        parameter: 'format',
      },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const key = await newKey();
        const res = await lookup(key, c.payload, c.headers, c.query);
        expect(res.statusCode, res.body).toBe(400);
        const { error } = res.json();
        expect(error.code).toBe('bad_request');
        expect(error.details.parameter).toBe(c.parameter);
        if (c.rule) expect(error.details.rule).toMatch(c.rule);
        expect(await used(key)).toEqual({ storeLookups: 0, perKeyDaily: 0 });
      });
    }
  });

  it('needs a key', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/v1/stores/lookup',
      payload: { domains: ['glow-skin.com'] },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthorized');
  });

  it('refuses a CSV body on a route that takes JSON', async () => {
    const key = await newKey();
    const res = await server.app.inject({
      method: 'POST',
      url: '/v1/scrapes',
      headers: { ...bearer(key), 'content-type': 'text/csv' },
      payload: 'domain\nnew-brand.shop.example\n',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'bad_request',
      details: { parameter: 'body', rule: 'Content-Type must be application/json' },
    });
  });
});

describe('Query.lookupStores', () => {
  let db: TestDatabase;
  let server: AccessServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, { PLAN_LIMITS_JSON: JSON.stringify(LIMITS) });
    await loadCatalogFixture(server.services.db.pool, server.services.legacy);
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const graphql = (key: string, domains: unknown) =>
    server.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: bearer(key),
      payload: {
        query:
          'query ($d: [String!]!) { lookupStores(domains: $d) { matches { requested store { domain } } stores { domain } notFound } }',
        variables: { d: domains },
      },
    });
  const bucketUsed = async (key: string) => {
    const res = await server.app.inject({ method: 'GET', url: '/v1/usage', headers: bearer(key) });
    return (res.json().limits as Array<{ name: string; used: number }>).find(
      (l) => l.name === 'storeLookups',
    )?.used;
  };

  it('answers one match per different domain asked and charges each store found', async () => {
    const key = await mintKey(server, { accountExternalId: 'gql-lookup' });
    const res = await graphql(key, [
      'glow-skin.com',
      'nope.example',
      'GLOW-SKIN.com',
      'cozy-nest.com',
    ]);
    expect(res.json()).toMatchObject({
      data: {
        lookupStores: {
          matches: [
            { requested: 'glow-skin.com', store: { domain: 'glow-skin.com' } },
            { requested: 'nope.example', store: null },
            { requested: 'cozy-nest.com', store: { domain: 'cozy-nest.com' } },
          ],
          stores: [{ domain: 'glow-skin.com' }, { domain: 'cozy-nest.com' }],
          notFound: ['nope.example'],
        },
      },
    });
    expect(await bucketUsed(key)).toBe(2);
  });

  it('refuses a malformed domain or more than 100 with bad_request, charging the bucket nothing', async () => {
    const key = await mintKey(server, { accountExternalId: 'gql-lookup-bad' });
    for (const domains of [
      ['glow-skin.com', 'not a domain'],
      [],
      Array.from({ length: 101 }, (_, i) => `s${i}.com`),
    ]) {
      const res = await graphql(key, domains);
      expect(res.json().errors[0].extensions.code).toBe('bad_request');
      expect(res.json().data?.lookupStores ?? null).toBeNull();
    }
    expect(await bucketUsed(key)).toBe(0);
  });
});
