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

  it('let HTML pages load their scripts but never be framed', async () => {
    const graphiql = await inject({
      method: 'GET',
      url: '/graphql',
      headers: { accept: 'text/html' },
    });
    expect(graphiql.headers['content-type']).toMatch(/^text\/html/);
    expect(graphiql.headers['content-security-policy']).toBe("frame-ancestors 'none'");
    expect(graphiql.headers['x-frame-options']).toBe('DENY');
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
