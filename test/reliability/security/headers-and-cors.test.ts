// The security headers every answer carries and the CORS policy of /v1 and /graphql
// (src/http/security-headers.ts): any origin, no credentials, a preflight answered without a key,
// rate-limit headers readable by a browser page.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORS_EXPOSED_HEADERS } from '../../../src/http/security-headers.ts';
import {
  bearer,
  mintKey,
  startAccessServer,
  type AccessServer,
} from '../../access/access-server.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';

let db: TestDatabase;
let server: AccessServer;
let key: string;
beforeAll(async () => {
  db = await createTestDatabase();
  server = await startAccessServer(db.url);
  key = await mintKey(server, { plan: 'pro' });
});
afterAll(async () => {
  await server?.close();
  await db?.drop();
});

const ORIGIN = 'https://dashboard.example.org';
const inject = (options: InjectOptions) => server.app.inject(options);

describe('security headers', () => {
  it.each([
    ['a data answer', '/v1/analytics/overview', 200],
    ['an error', '/v1/stores?bogus=1', 400],
    ['an unknown path', '/v1/nope', 404],
    ['a discovery document', '/v1/openapi.json', 200],
    ['GraphQL', '/graphql?query=%7B__typename%7D', 200],
  ])('are on %s', async (_what, url, status) => {
    const res = await inject({ method: 'GET', url, headers: bearer(key) });
    expect(res.statusCode).toBe(status);
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    });
  });

  /** the page's opening tags outside script contents, as an HTML parser reads them */
  const tagsOf = (html: string) =>
    [
      ...html
        .replace(/(<script\b[^>]*>)[\s\S]*?<\/script/gi, '$1</script')
        .matchAll(/<[a-z][^>]*>/gi),
    ].map((match) => match[0]);

  it.each([
    ['GraphiQL', '/graphql'],
    ['the /docs reference', '/docs/'],
    ['the operations console', '/dashboard/scrapes'],
  ])(
    '%s runs only the scripts it was sent with: a nonce per answer on each, no inline handler, never framed',
    async (_page, url) => {
      const load = () => inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      const page = await load();
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const policy = String(page.headers['content-security-policy']);
      const nonce = /^script-src 'nonce-([A-Za-z0-9+/]{22}==)' 'strict-dynamic'; /.exec(
        policy,
      )?.[1];
      expect(nonce, policy).toBeDefined();
      expect(policy.split('; ').slice(1)).toEqual([
        "worker-src 'self' blob:",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ]);
      const tags = tagsOf(page.body);
      const scripts = tags.filter((tag) => /^<script\b/i.test(tag));
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts) expect(script).toContain(` nonce="${nonce}"`);
      expect(tags.filter((tag) => /\son[a-z]+\s*=/i.test(tag))).toEqual([]);
      expect(page.headers['x-frame-options']).toBe('DENY');
      // a nonce is good for one answer only
      const again = String((await load()).headers['content-security-policy']);
      expect(again).not.toContain(nonce);
    },
  );

  it('give an HTML page without scripts (GET / in a browser) no script at all', async () => {
    const root = await inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(root.headers['content-type']).toMatch(/^text\/html/);
    expect(root.headers['content-security-policy']).toBe(
      "script-src 'none'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    );
  });

  it('keep data answers out of every cache, while discovery documents keep their own policy', async () => {
    for (const url of [
      '/v1/analytics/overview',
      '/v1/stores?bogus=1',
      '/graphql?query=%7B__typename%7D',
    ]) {
      expect(
        (await inject({ method: 'GET', url, headers: bearer(key) })).headers['cache-control'],
        url,
      ).toBe('no-store');
    }
    const openapi = await inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(openapi.headers['cache-control']).not.toBe('no-store');
    expect(openapi.headers['cache-control']).toMatch(/max-age/);
  });

  it('send HSTS only when the request came over TLS (a TLS-terminating proxy says so in X-Forwarded-Proto)', async () => {
    const plain = await inject({ method: 'GET', url: '/v1/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const proxied = await inject({
      method: 'GET',
      url: '/v1/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(proxied.headers['strict-transport-security']).toBe('max-age=31536000');
  });
});

describe('CORS on /v1, /graphql and /mcp', () => {
  it.each(['/v1/stores', '/v1/signals/example.com', '/graphql', '/mcp'])(
    'answers a preflight for %s with 204, without a key',
    async (url) => {
      const res = await inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(String(res.headers['access-control-allow-methods']).split(', ')).toEqual(
        expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']),
      );
      expect(String(res.headers['access-control-allow-headers']).toLowerCase().split(', ')).toEqual(
        expect.arrayContaining(['authorization', 'x-api-key', 'content-type']),
      );
      expect(res.headers['access-control-max-age']).toBe('7200');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    },
  );

  it('lets any origin read answers, without credentials, with the rate-limit headers exposed', async () => {
    for (const url of ['/v1/analytics/overview', '/graphql?query=%7B__typename%7D']) {
      const res = await inject({ method: 'GET', url, headers: { ...bearer(key), origin: ORIGIN } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['access-control-allow-origin'], url).toBe('*');
      expect(res.headers['access-control-allow-credentials'], url).toBeUndefined();
      const exposed = String(res.headers['access-control-expose-headers']).split(', ');
      expect(exposed).toEqual(
        expect.arrayContaining([
          'X-RateLimit-Limit',
          'X-RateLimit-Remaining',
          'X-RateLimit-Reset',
          'Retry-After',
        ]),
      );
      expect(exposed).toEqual([...CORS_EXPOSED_HEADERS]);
    }
    // a key of its own, so the figures do not depend on what other tests spent: the pro plan's 300
    // requests per minute, one of them used by this request
    const fresh = await mintKey(server, { plan: 'pro' });
    const rest = await inject({
      method: 'GET',
      url: '/v1/analytics/overview',
      headers: { ...bearer(fresh), origin: ORIGIN },
    });
    expect(rest.headers['x-ratelimit-limit']).toBe('300');
    expect(rest.headers['x-ratelimit-remaining']).toBe('299');
  });

  it('also marks refusals readable, so a page can show the error (401 without a key, 429 with Retry-After)', async () => {
    const res = await inject({ method: 'GET', url: '/v1/stores', headers: { origin: ORIGIN } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.json().error.code).toBe('unauthorized');
  });

  it('is not offered outside the API surfaces', async () => {
    const res = await inject({
      method: 'OPTIONS',
      url: '/dashboard/scrapes',
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});
