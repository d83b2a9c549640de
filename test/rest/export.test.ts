// Exports of the store and product lists: CSV or NDJSON by Accept, the whole list streamed in pages,
// each page charged as one list call, never past the plan's result window; a page refused midway
// ends the stream visibly.
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
    .map((line) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].slice(0, -1).map(([, cell]) => cell!.replace(/^"|"$/g, '').replace(/""/g, '"')));

describe('list exports', () => {
  let test: CatalogTestServices;
  let app: FastifyInstance;
  let starter: string;
  let pro: string;

  beforeAll(async () => {
    test = await createTestServices();
    await loadCatalogFixture(test.services.db.pool, test.services.legacy);
    // a starter key lists 7 deep; a pro account has 2 store searches a day
    test.services.config = {
      ...test.services.config,
      PLAN_LIMITS_JSON: loadConfig({ PLAN_LIMITS_JSON: '{"starter":{"resultWindow":7},"pro":{"daily":{"storeSearches":2}}}' }).PLAN_LIMITS_JSON,
    };
    app = await buildServer(test.services);
    starter = (await mintApiKey(test.services.db.prisma, { accountExternalId: 'exporter', plan: 'starter' })).key;
    pro = (await mintApiKey(test.services.db.prisma, { accountExternalId: 'pro-exporter', plan: 'pro' })).key;
  });
  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  const get = (url: string, key: string, accept?: string) =>
    app.inject({ method: 'GET', url, headers: { 'x-api-key': key, ...(accept ? { accept } : {}) } });
  const used = async (key: string, bucket: string) =>
    ((await get('/v1/usage', key)).json().limits as Array<{ name: string; used: number }>).find((l) => l.name === bucket)!.used;

  it('answers CSV with one column per field, the rows of the list, in pages charged as list calls, within the result window', async () => {
    const json = (await get('/v1/stores?sort=visits&limit=7', starter)).json();
    const before = await used(starter, 'storeSearches');

    const res = await get('/v1/stores?sort=visits&limit=3', starter, 'text/csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers.vary).toContain('Accept');
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual(expect.arrayContaining(['domain', 'monthlyRevenueUsd.low', 'monthlyRevenueUsd.high', 'traffic.latest.organic', 'sources']));
    // 12 stores, but this plan lists 7 deep: pages of 3, 3 and 1
    expect(rows.map((row) => row[header!.indexOf('domain')])).toEqual(json.data.map((store: { domain: string }) => store.domain));
    expect(rows[0]![header!.indexOf('monthlyRevenueUsd.high')]).toBe(String(json.data[0].monthlyRevenueUsd.high));
    expect((await used(starter, 'storeSearches')) - before).toBe(3);
  });

  it('answers NDJSON with the items of the list, one per line', async () => {
    const json = (await get('/v1/products?q=hoodie&limit=7', starter)).json();
    const res = await get('/v1/products?q=hoodie', starter, 'application/x-ndjson');
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.body.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(json.data);
    expect(json.data.length).toBeGreaterThan(0);
  });

  it('exports a store\'s products and an app\'s stores too; other Accept values get JSON', async () => {
    const products = await get('/v1/stores/acme-apparel.com/products', starter, 'application/x-ndjson');
    expect(products.body.trimEnd().split('\n')).toHaveLength(3);
    const plain = await get('/v1/stores?limit=2', starter, 'application/json, text/plain');
    expect(plain.json().data).toHaveLength(2);
  });

  it('refuses before streaming as GET would, and ends a stream whose later page is refused with the error as its last NDJSON line', async () => {
    const bad = await get('/v1/stores?limit=500', starter, 'text/csv');
    expect([bad.statusCode, bad.json().error.details.parameter]).toEqual([400, 'limit']);

    const res = await get('/v1/stores?limit=4', pro, 'application/x-ndjson');
    expect(res.statusCode).toBe(200);
    const lines = res.body.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines).toHaveLength(9);
    expect(lines.slice(0, 8).every((line) => typeof line.domain === 'string')).toBe(true);
    expect(lines[8].error).toMatchObject({ code: 'rate_limited', details: { bucket: 'storeSearches' } });
    expect(FIXTURE_STORES.length).toBeGreaterThan(8);
  });

  it('writes CSV cells safely: quotes, commas and formulas', () => {
    expect(csvRow(['a', 'b.c', 'd', 'e'], { a: 'x, "y"', b: { c: '=cmd()' }, d: -5, e: ['p', 'q'] })).toBe('"x, ""y""",\'=cmd(),-5,"[""p"",""q""]"\r\n');
  });
});
