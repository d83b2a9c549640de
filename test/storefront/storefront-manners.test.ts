// What a storefront says about when to come back, and which name answers for it: a robots.txt
// answering 429 or 5xx means wait (never "allow all"); a long Retry-After holds the store off for
// every process and after a restart (crawler_host_holds); a password-protected store says so and
// is a temporary state; a store answering only on its www name (or only on its apex) is read there;
// a moved store's new host is named without its port.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgress } from '../../src/platform/egress/egress.ts';
import { parseEgressOverrides } from '../../src/platform/egress/overrides.ts';
import { databaseHostHolds } from '../../src/storefront/host-holds.sql.ts';
import {
  observeStorefront,
  validateStorefront,
  type StorefrontReader,
} from '../../src/storefront/read-storefront.ts';
import { createStorefrontClient, nameFirst } from '../../src/storefront/storefront-client.ts';
import { StorefrontFailure } from '../../src/storefront/storefront-failure.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import pg from 'pg';

const HOMEPAGE = `<html><head><title>Manners Shop</title><script>Shopify.theme = {"name":"Dawn"};</script></head><body></body></html>`;
const PASSWORD_PAGE = `<html><head><title>Opening soon</title><script>Shopify.theme = {"name":"Dawn"};</script></head>
<body class="template-password"><form method="post" action="/password" id="login_form"><input type="password" name="password"></form></body></html>`;
const PRODUCTS = JSON.stringify({
  products: [{ handle: 'mug', title: 'Mug', variants: [{ price: '10.00' }] }],
});

/** hosts the fixture answers for; every other name of the test does not resolve */
const HOSTS = [
  'robots-busy.test',
  'robots-down.test',
  'hour.test',
  'locked.test',
  'locked-products.test',
  'www.wwwonly.test',
  'apexonly.test',
  'bothforms.test',
  'www.bothforms.test',
  'moving.test',
];

let server: http.Server;
let port: number;
let db: TestDatabase;
let pool: pg.Pool;
const seen: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0]!;
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(`${host}${url.pathname}`);
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (url.pathname === '/robots.txt') {
      if (host === 'robots-busy.test') return res.writeHead(429, { 'retry-after': '3600' }).end();
      if (host === 'robots-down.test') return res.writeHead(503).end();
      return res.writeHead(404).end();
    }
    if (host === 'moving.test')
      return res.writeHead(301, { location: 'https://www.target.test:8443/' }).end();
    if (host === 'locked.test' && url.pathname !== '/password')
      return res.writeHead(302, { location: '/password' }).end();
    if (host === 'locked-products.test' && url.pathname === '/products.json')
      return res.writeHead(302, { location: '/password' }).end();
    if (url.pathname === '/password') return html(PASSWORD_PAGE);
    if (host === 'hour.test' && url.pathname === '/products.json')
      return res.writeHead(429, { 'retry-after': '3600' }).end();
    if (url.pathname === '/') return html(HOMEPAGE);
    if (url.pathname === '/products.json')
      return res.writeHead(200, { 'content-type': 'application/json' }).end(PRODUCTS);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await pool?.end();
  await db?.drop();
});

/** A reader as one process has it; a second one is the same service after a restart. */
function processReader(): StorefrontReader {
  const egress = createEgress({
    overrides: parseEgressOverrides(HOSTS.map((h) => `${h}=http://127.0.0.1:${port}`).join(',')),
    timeoutMs: 5_000,
    maxBytes: 1_000_000,
    hostIntervalMs: 0,
    userAgent: 'manners-test',
  });
  return {
    client: createStorefrontClient(egress, databaseHostHolds(pool)),
    apps: [],
    dropshipVocabulary: [],
    maxProductPages: 1,
  };
}

async function failureOf(reader: StorefrontReader, domain: string): Promise<StorefrontFailure> {
  const error = await (async () =>
    observeStorefront(reader, await validateStorefront(reader, domain)))().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StorefrontFailure);
  return error as StorefrontFailure;
}

describe('robots.txt that cannot answer now', () => {
  it('a 429 with Retry-After means wait: nothing else of the store is read, and the hold outlives the process', async () => {
    const failure = await failureOf(processReader(), 'robots-busy.test');
    expect(failure.kind).toBe('rate_limited');
    expect(failure.details.retryAfterSeconds).toBe(3600);
    expect(seen.filter((s) => s.startsWith('robots-busy.test'))).toEqual([
      'robots-busy.test/robots.txt',
    ]);
    // the same service restarted asks nothing of it either
    const again = await failureOf(processReader(), 'robots-busy.test');
    expect(again.kind).toBe('rate_limited');
    expect(again.details.retryAfterSeconds).toBeGreaterThan(3500);
    expect(seen.filter((s) => s.startsWith('robots-busy.test'))).toHaveLength(1);
  });

  it('a 5xx means wait too, never allow-all', async () => {
    const failure = await failureOf(processReader(), 'robots-down.test');
    expect(failure.kind).toBe('server_error');
    expect(seen).not.toContain('robots-down.test/');
  });
});

describe('a long Retry-After', () => {
  it('holds the store off in every process and after a restart', async () => {
    const first = await failureOf(processReader(), 'hour.test');
    expect(first.kind).toBe('rate_limited');
    const asked = seen.filter((s) => s.startsWith('hour.test')).length;
    const restarted = await failureOf(processReader(), 'hour.test');
    expect(restarted.kind).toBe('rate_limited');
    expect(restarted.details.retryAfterSeconds).toBeGreaterThan(3500);
    expect(seen.filter((s) => s.startsWith('hour.test'))).toHaveLength(asked);
  });
});

describe('a password-protected store', () => {
  it('says so when its homepage leads to the password page', async () => {
    const failure = await failureOf(processReader(), 'locked.test');
    expect(failure.kind).toBe('password_protected');
    expect(failure.message).toContain('locked.test is password protected');
  });

  it('says so when only products.json leads there (not "not JSON")', async () => {
    const failure = await failureOf(processReader(), 'locked-products.test');
    expect(failure.kind).toBe('password_protected');
  });
});

describe('the www and apex forms of a name', () => {
  it('reads a store that answers only on www. (its apex does not resolve)', async () => {
    const reader = processReader();
    const observed = await observeStorefront(
      reader,
      await validateStorefront(reader, 'wwwonly.test'),
    );
    expect(observed.products).toHaveLength(1);
    expect(seen).toContain('www.wwwonly.test/products.json');
  });

  it('reads a store that answers only on its apex when asked for its www. form', async () => {
    const reader = processReader();
    const observed = await observeStorefront(
      reader,
      await validateStorefront(reader, 'www.apexonly.test'),
    );
    expect(observed.products).toHaveLength(1);
  });

  it('asks the form a caller named first, even when the other form answered before', async () => {
    const reader = processReader();
    await validateStorefront(reader, 'bothforms.test');
    expect(seen.filter((s) => s.endsWith('bothforms.test/'))).toEqual(['bothforms.test/']);
    nameFirst(reader.client, 'bothforms.test', 'www.bothforms.test');
    await validateStorefront(reader, 'bothforms.test');
    expect(seen.filter((s) => s.endsWith('bothforms.test/'))).toEqual([
      'bothforms.test/',
      'www.bothforms.test/',
    ]);
  });

  it('still fails as unresolvable when neither form answers, naming the form asked for', async () => {
    const failure = await failureOf(processReader(), 'nowhere.test');
    expect(failure.kind).toBe('unresolvable');
    expect(failure.message).toContain('nowhere.test does not resolve');
  });
});

describe('a moved store', () => {
  it('names its new host without a port', async () => {
    const failure = await failureOf(processReader(), 'moving.test');
    expect(failure.kind).toBe('moved');
    expect(failure.details.movedTo).toBe('www.target.test');
  });
});
