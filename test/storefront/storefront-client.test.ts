// The crawler's manners, for every read of a storefront (scrapes, Signals, the scheduler): the
// store's robots.txt is honoured for each path read, a synthetic (.example) store is never
// contacted, and every request names the crawler and where to reach its operator.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.ts';
import { createEgress } from '../../src/platform/egress/egress.ts';
import { storefrontUserAgent } from '../../src/platform/egress/egress-from-config.ts';
import { parseEgressOverrides } from '../../src/platform/egress/overrides.ts';
import {
  observeStorefront,
  validateStorefront,
  type StorefrontReader,
} from '../../src/storefront/read-storefront.ts';
import { createStorefrontClient } from '../../src/storefront/storefront-client.ts';
import { StorefrontFailure } from '../../src/storefront/storefront-failure.ts';

const HOMEPAGE = `<html><head><title>Robots Shop</title><script>Shopify.theme = {"name":"Dawn"};</script></head><body></body></html>`;
const PRODUCTS = { products: [{ handle: 'mug', title: 'Mug', variants: [{ price: '10.00' }] }] };

/** host -> robots.txt answer: a body (200) or a status */
const ROBOTS: Record<string, string | number> = {
  'polite.test':
    'User-agent: *\nDisallow: /collections/*sort_by*\nDisallow: /collections/best-sellers\n',
  'private.test':
    'User-agent: store-intelligence-scraper\nDisallow: /products.json\n\nUser-agent: *\nAllow: /\n',
  'open.test': 404,
  'broken.test': 503,
  'demo-shop.example': 404,
  'busy.test': 404,
};

let server: http.Server;
const seen: Array<{ host: string; path: string; userAgent: string }> = [];
let reader: StorefrontReader;
const userAgent = storefrontUserAgent(
  loadConfig({ PUBLIC_BASE_URL: 'https://intel.test', NODE_ENV: 'test' }),
);

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0]!;
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({
      host,
      path: `${url.pathname}${url.search}`,
      userAgent: String(req.headers['user-agent']),
    });
    if (url.pathname === '/robots.txt') {
      const robots = ROBOTS[host];
      if (typeof robots === 'string')
        res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
      else res.writeHead(robots ?? 404).end();
    } else if (url.pathname === '/')
      res.writeHead(200, { 'content-type': 'text/html' }).end(HOMEPAGE);
    else if (host === 'busy.test' && url.pathname === '/products.json')
      res.writeHead(429, { 'retry-after': '120' }).end();
    else if (url.pathname === '/products.json' && url.searchParams.get('page') === '1') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(PRODUCTS));
    } else if (url.pathname.endsWith('.json'))
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"products":[]}');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const egress = createEgress({
    overrides: parseEgressOverrides(
      Object.keys(ROBOTS)
        .map((h) => `${h}=http://127.0.0.1:${port}`)
        .join(','),
    ),
    timeoutMs: 2_000,
    maxBytes: 1_000_000,
    hostIntervalMs: 0,
    userAgent,
  });
  reader = {
    client: createStorefrontClient(egress),
    apps: [],
    dropshipVocabulary: [],
    maxProductPages: 3,
  };
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const observe = async (domain: string) =>
  observeStorefront(reader, await validateStorefront(reader, domain));
const pathsOf = (host: string) => seen.filter((r) => r.host === host).map((r) => r.path);
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the read succeeded'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(StorefrontFailure);
      return error as StorefrontFailure;
    },
  );

describe('robots.txt', () => {
  it('reads robots.txt first and never asks for a path it disallows; optional paths are done without', async () => {
    const observation = await observe('polite.test');
    expect(observation.products.map((p) => p.handle)).toEqual(['mug']);
    const paths = pathsOf('polite.test');
    expect(paths[0]).toBe('/robots.txt');
    expect(paths.filter((p) => p === '/robots.txt')).toHaveLength(1); // kept for the next reads
    expect(
      paths.some((p) => p.includes('sort_by') || p.startsWith('/collections/best-sellers')),
    ).toBe(false);
    expect(paths).toContain('/products.json?limit=250&page=1');
  });

  it('fails the read when our group disallows a path it needs, without requesting it', async () => {
    const failure = await failureOf(observe('private.test'));
    expect(failure.kind).toBe('robots');
    expect(failure.message).toContain('robots.txt of private.test disallows /products.json');
    expect(pathsOf('private.test').some((p) => p.startsWith('/products.json'))).toBe(false);
  });

  it('allows everything when robots.txt is missing, and reads nothing while it fails with a 5xx', async () => {
    expect((await observe('open.test')).products).toHaveLength(1);
    const failure = await failureOf(observe('broken.test'));
    expect(failure.kind).toBe('server_error');
    expect(pathsOf('broken.test')).toEqual(['/robots.txt']);
  });
});

describe('a host asking to wait', () => {
  it('is held off for its Retry-After: the next read fails at once without a request', async () => {
    const first = await failureOf(observe('busy.test'));
    expect(first).toMatchObject({ kind: 'rate_limited', details: { retryAfterSeconds: 120 } });
    const asked = pathsOf('busy.test').length;
    const second = await failureOf(observe('busy.test'));
    expect(second.kind).toBe('rate_limited');
    expect(second.details.retryAfterSeconds).toBeGreaterThan(100);
    expect(pathsOf('busy.test')).toHaveLength(asked);
  });
});

describe('synthetic stores', () => {
  it('never contacts a store under the reserved .example domain on the network: no request, no lookup', async () => {
    const failure = await failureOf(observe('shop.example'));
    expect(failure.kind).toBe('synthetic');
    expect(pathsOf('shop.example')).toEqual([]);
  });

  it('reads a .example store only from the local origin named for it (the demo storefronts, EGRESS_OVERRIDES)', async () => {
    const read = await observe('demo-shop.example');
    expect(read.products.map((p) => p.handle)).toEqual(['mug']);
    expect(pathsOf('demo-shop.example')).toContain('/products.json?limit=250&page=1');
  });
});

describe('User-Agent', () => {
  it('names the crawler, its version and the contact URL on every request', () => {
    expect(userAgent).toMatch(
      /^store-intelligence-scraper\/\d+\.\d+\.\d+ \(\+https:\/\/intel\.test\/v1\/docs\.md#crawler\)$/,
    );
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen.map((r) => r.userAgent))).toEqual(new Set([userAgent]));
    const contact = storefrontUserAgent(
      loadConfig({ CRAWLER_CONTACT_URL: 'https://example.org/bot', NODE_ENV: 'test' }),
    );
    expect(contact).toContain('(+https://example.org/bot)');
  });
});
