// Exports of the store and product lists: CSV or NDJSON when Accept prefers one (RFC 9110
// negotiation) or `format=` names one, the list from `offset` (at most `limit` items) in pages, all
// pages charged before the file streams, never past the plan's result window; the headers and the
// file's last line state the total and whether the file is complete.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRow } from '../../rest/export/csv.ts';
import { mintApiKey } from '../../src/access/api-keys.ts';
import { buildServer } from '../../app/server.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { FIXTURE_STORES, loadCatalogFixture } from '../support/catalog-fixture.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';

/** RFC 4180 rows as arrays of cells (enough for this fixture: no line breaks inside cells) */
const parseCsv = (text: string) =>
  text
    .trimEnd()
    .split('\r\n')
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)]
        .slice(0, -1)
        .map(([, cell]) => cell!.replace(/^"|"$/g, '').replace(/""/g, '"')),
    );

describe('list exports', () => {
  let test: CatalogTestServices;
  let app: FastifyInstance;
  let starter: string;
  let pro: string;

  beforeAll(async () => {
    test = await createTestServices();
    await loadCatalogFixture(test.services.db.pool, test.services.legacy);
    // a starter key lists 7 deep; a pro account has 4 store searches a day; exports go in pages of 3
    test.services.config = {
      ...test.services.config,
      PLAN_LIMITS_JSON: loadConfig({
        PLAN_LIMITS_JSON: '{"starter":{"resultWindow":7},"pro":{"daily":{"storeSearches":4}}}',
      }).PLAN_LIMITS_JSON,
    };
    app = await buildServer(test.services, { exportPageSize: 3 });
    starter = (
      await mintApiKey(test.services.db.prisma, { accountExternalId: 'exporter', plan: 'starter' })
    ).key;
    pro = (
      await mintApiKey(test.services.db.prisma, { accountExternalId: 'pro-exporter', plan: 'pro' })
    ).key;
  });
  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  const get = (url: string, key: string, accept?: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: { 'x-api-key': key, ...(accept ? { accept } : {}) },
    });
  const used = async (key: string, bucket: string) =>
    ((await get('/v1/usage', key)).json().limits as Array<{ name: string; used: number }>).find(
      (l) => l.name === bucket,
    )!.used;

  /** the file's lines without its last one (the end marker), and the marker */
  const withoutMarker = (text: string) => {
    const lines = text.trimEnd().split(/\r?\n/);
    return { lines: lines.slice(0, -1), marker: lines.at(-1)! };
  };

  it('answers JSON, honouring limit and charging one call, to a JSON-first Accept, */* and an Accept naming none of ours', async () => {
    for (const accept of [
      'application/json, text/csv, application/x-ndjson',
      '*/*',
      'text/html,application/xhtml+xml,*/*;q=0.8',
      'text/plain',
    ]) {
      const before = await used(starter, 'storeSearches');
      const res = await get('/v1/stores?limit=2', starter, accept);
      expect([accept, res.statusCode, res.headers['content-type']]).toEqual([
        accept,
        200,
        'application/json; charset=utf-8',
      ]);
      expect(res.json().data).toHaveLength(2);
      expect((await used(starter, 'storeSearches')) - before).toBe(1);
    }
  });

  it('answers an export when Accept prefers it (order, then q-values) or format= names it; format=json wins over Accept', async () => {
    const typeOf = async (url: string, accept?: string) =>
      (await get(url, starter, accept)).headers['content-type'];
    expect(await typeOf('/v1/stores?limit=2', 'text/csv')).toBe('text/csv; charset=utf-8');
    expect(await typeOf('/v1/stores?limit=2', 'text/csv, application/json')).toBe(
      'text/csv; charset=utf-8',
    );
    expect(await typeOf('/v1/stores?limit=2', 'application/json;q=0.5, application/x-ndjson')).toBe(
      'application/x-ndjson; charset=utf-8',
    );
    expect(await typeOf('/v1/stores?limit=2', 'text/csv;q=0.4, application/json;q=0.9')).toBe(
      'application/json; charset=utf-8',
    );
    expect(await typeOf('/v1/stores?limit=2&format=csv')).toBe('text/csv; charset=utf-8');
    expect(await typeOf('/v1/stores?limit=2&format=ndjson', 'application/json')).toBe(
      'application/x-ndjson; charset=utf-8',
    );
    expect(await typeOf('/v1/stores?limit=2&format=json', 'text/csv')).toBe(
      'application/json; charset=utf-8',
    );
    const bad = await get('/v1/stores?format=xml', starter);
    expect([bad.statusCode, bad.json().error.details.parameter]).toEqual([400, 'format']);
  });

  it('answers CSV with one column per field, the rows of the list within the result window, all pages charged before it streams', async () => {
    const json = (await get('/v1/stores?sort=visits&limit=7', starter)).json();
    const before = await used(starter, 'storeSearches');

    const res = await get('/v1/stores?sort=visits', starter, 'text/csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers.vary).toContain('Accept');
    // 12 stores, but this plan lists 7 deep: pages of 3, 3 and 1, three list calls
    expect([
      res.headers['x-export-total'],
      res.headers['x-export-rows'],
      res.headers['x-export-complete'],
    ]).toEqual(['12', '7', 'false']);
    const { lines, marker } = withoutMarker(res.body);
    expect(marker).toBe('#export rows=7 total=12 complete=false');
    const [header, ...rows] = parseCsv(lines.join('\r\n'));
    expect(header).toEqual(
      expect.arrayContaining([
        'domain',
        'monthlyRevenueUsd.low',
        'monthlyRevenueUsd.high',
        'traffic.latest.organic',
        'sources',
      ]),
    );
    expect(rows.map((row) => row[header!.indexOf('domain')])).toEqual(
      json.data.map((store: { domain: string }) => store.domain),
    );
    expect(rows[0]![header!.indexOf('monthlyRevenueUsd.high')]).toBe(
      String(json.data[0].monthlyRevenueUsd.high),
    );
    expect((await used(starter, 'storeSearches')) - before).toBe(3);
  });

  it('honours limit and offset in an export, and says complete when the file reaches the end of the list', async () => {
    const json = (await get('/v1/stores?sort=visits&limit=7', starter)).json();
    const limited = await get(
      '/v1/stores?sort=visits&offset=2&limit=4',
      starter,
      'application/x-ndjson',
    );
    const { lines, marker } = withoutMarker(limited.body);
    expect(lines.map((line) => JSON.parse(line).domain)).toEqual(
      json.data.slice(2, 6).map((store: { domain: string }) => store.domain),
    );
    expect(JSON.parse(marker)).toEqual({ export: { total: 12, rows: 4, complete: false } });

    // a store's 3 products: the whole list
    const all = await get('/v1/stores/acme-apparel.com/products', starter, 'text/csv');
    expect([
      all.headers['x-export-total'],
      all.headers['x-export-rows'],
      all.headers['x-export-complete'],
    ]).toEqual(['3', '3', 'true']);
    expect(withoutMarker(all.body).marker).toBe('#export rows=3 total=3 complete=true');
  });

  it('answers NDJSON with the items of the list, one per line, then its end marker', async () => {
    const json = (await get('/v1/products?q=hoodie&limit=7', starter)).json();
    const res = await get('/v1/products?q=hoodie', starter, 'application/x-ndjson');
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const { lines, marker } = withoutMarker(res.body);
    expect(lines.map((line) => JSON.parse(line))).toEqual(json.data);
    expect(JSON.parse(marker).export).toMatchObject({ rows: json.data.length, complete: true });
    expect(json.data.length).toBeGreaterThan(0);
  });

  it("exports a store's products and an app's stores too", async () => {
    const products = await get(
      '/v1/stores/acme-apparel.com/products',
      starter,
      'application/x-ndjson',
    );
    expect(withoutMarker(products.body).lines).toHaveLength(3);
  });

  it('refuses before streaming as GET would, and refuses an export the quota cannot pay in full instead of cutting a 200', async () => {
    const bad = await get('/v1/stores?limit=500', starter, 'text/csv');
    expect([bad.statusCode, bad.json().error.details.parameter]).toEqual([400, 'limit']);

    // 4 store searches a day, one spent: 12 stores are 4 pages of 3, so the export cannot be paid
    expect((await get('/v1/stores?limit=1', pro)).statusCode).toBe(200);
    const res = await get('/v1/stores', pro, 'application/x-ndjson');
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toMatchObject({
      code: 'rate_limited',
      details: { bucket: 'storeSearches' },
    });
    expect(FIXTURE_STORES.length).toBe(12);
  });

  it('writes CSV cells safely: quotes, commas and formulas', () => {
    expect(
      csvRow(['a', 'b.c', 'd', 'e'], { a: 'x, "y"', b: { c: '=cmd()' }, d: -5, e: ['p', 'q'] }),
    ).toBe('"x, ""y""",\'=cmd(),-5,"[""p"",""q""]"\r\n');
  });
});
