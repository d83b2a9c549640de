import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildServer, BODY_LIMIT_BYTES, type ServerPlugin } from '../../app/server.ts';
import { reasonError } from '../../src/platform/errors.ts';
import { openTestServices, type TestServices } from './test-services.ts';

/** Routes standing in for the surfaces that mount on the shell, to exercise its error handling. */
const probeRoutes: ServerPlugin = async (app, services) => {
  app.post('/probe/echo', async (request) => ({ received: request.body }));
  app.get('/probe/crash', async () => {
    throw new Error('secret internals at /srv/app.ts:42');
  });
  app.get('/probe/already-tracked', async () => {
    throw reasonError('already_tracked', 'already tracked', { domain: 'example.com' });
  });
  app.get('/probe/slow', async () => (await services.db.pool.query('SELECT pg_sleep(5)')).rows);
};

describe('HTTP shell', () => {
  let services: TestServices;
  let app: FastifyInstance;
  beforeAll(async () => {
    services = await openTestServices({ queryTimeoutMs: 200 });
    app = await buildServer(services, { plugins: [probeRoutes] });
  });
  afterAll(async () => {
    await app?.close();
    await services?.close();
  });

  it('answers an unknown route with the not_found envelope and 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/nope?limit=5' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: {
        code: 'not_found',
        message: expect.stringContaining('GET /v1/nope'),
        details: { method: 'GET', path: '/v1/nope' },
      },
    });
  });

  it("answers a URL too long for the HTTP parser with the contract envelope, not the framework's body", async () => {
    // inject() bypasses Node's parser; only a real socket meets its header limit
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/v1/stores?q=${'a'.repeat(20_000)}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: 'bad_request',
        message: 'The URL and headers are too long.',
        details: {
          parameter: 'url',
          rule: expect.stringMatching(/^the request line and headers together at most \d+ bytes$/),
        },
      },
    });
  });

  it('answers malformed JSON with bad_request and 400', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/probe/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"domain": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: {
        code: 'bad_request',
        message: 'The request body is not valid JSON.',
        details: { parameter: 'body', rule: 'must be valid JSON' },
      },
    });
  });

  it('answers a body that is not JSON with bad_request and 400', async () => {
    for (const contentType of ['application/xml', 'text/plain']) {
      const res = await app.inject({
        method: 'POST',
        url: '/probe/echo',
        headers: { 'content-type': contentType },
        payload: 'domain=x',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('bad_request');
    }
  });

  it('answers a body over the limit with bad_request and 400', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/probe/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ pad: 'x'.repeat(BODY_LIMIT_BYTES) }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: { code: 'bad_request', details: { parameter: 'body' } },
    });
  });

  it('still accepts a JSON body within the limit', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/probe/echo',
      payload: { domain: 'example.com' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: { domain: 'example.com' } });
  });

  it('answers an unexpected failure with internal and 500, without stack or internals', async () => {
    const res = await app.inject({ method: 'GET', url: '/probe/crash' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      error: { code: 'internal', message: 'Internal server error.', details: null },
    });
    expect(res.body).not.toMatch(/secret|app\.ts|at /);
  });

  it("answers an error of a named reason with a contract code and the reason's status", async () => {
    const res = await app.inject({ method: 'GET', url: '/probe/already-tracked' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: {
        code: 'bad_request',
        message: 'already tracked',
        details: { reason: 'already_tracked', domain: 'example.com' },
      },
    });
  });

  it('answers a query cancelled by the statement timeout with query_timeout', async () => {
    const res = await app.inject({ method: 'GET', url: '/probe/slow' });
    expect(res.statusCode).toBe(504);
    expect(res.json()).toMatchObject({ error: { code: 'query_timeout' } });
  });

  it("answers a malformed URL with the envelope, not Fastify's own body", async () => {
    const res = await app.inject({ method: 'GET', url: '/probe/%zz' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: {
        code: 'bad_request',
        message: 'The URL is not valid.',
        details: { parameter: 'url', rule: 'must be correctly percent-encoded' },
      },
    });
  });

  it('gives every response a request id, keeping a caller-supplied one', async () => {
    const own = await app.inject({
      method: 'GET',
      url: '/v1/health',
      headers: { 'x-request-id': 'trace-123' },
    });
    expect(own.headers['x-request-id']).toBe('trace-123');
    const generated = await app.inject({
      method: 'GET',
      url: '/v1/health',
      headers: { 'x-request-id': 'bad id\n' },
    });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never logs an API key, from a header or the query string', async () => {
    const secrets = ['hdr-secret-1', 'hdr-secret-2', 'query-secret-3'];
    await app.inject({
      method: 'GET',
      url: `/v1/nope?key=${secrets[2]}&limit=5`,
      headers: { authorization: `Bearer ${secrets[0]}`, 'x-api-key': secrets[1] },
    });
    const logs = services.logLines.join('\n');
    expect(logs).toContain('/v1/nope?key=%5Bredacted%5D&limit=5');
    for (const secret of secrets) expect(logs).not.toContain(secret);
  });

  it('mounts the GraphQL and REST surfaces', async () => {
    const graphql = await app.inject({
      method: 'POST',
      url: '/graphql',
      payload: { query: '{ __typename }' },
    });
    expect(graphql.statusCode).toBe(200);
    expect(graphql.json().data).toEqual({ __typename: 'Query' });
    const openapi = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(openapi.statusCode).toBe(200);
    expect(openapi.json().openapi).toMatch(/^3\.1/);
  });

  it('reports health: every backend, version and uptime', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      backends: {
        structured: { ok: true, backend: 'postgres', latencyMs: expect.any(Number) },
        legacy: { ok: true, backend: 'postgres-jsonb', latencyMs: expect.any(Number) },
        redis: { ok: true, backend: 'in-process' },
      },
      openDevMode: true,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      uptimeSeconds: expect.any(Number),
    });
  });
});

describe('health when a backend is down', () => {
  it('is degraded but 200 when only Redis is down', async () => {
    const services = await openTestServices();
    const app = await buildServer({
      ...services,
      pubsub: Object.assign(Object.create(services.pubsub), {
        backend: 'redis',
        health: async () => ({
          ok: false,
          backend: 'redis',
          error: 'connect ECONNREFUSED 10.0.0.7:6379',
        }),
      }),
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/v1/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        status: 'degraded',
        backends: { redis: { ok: false, backend: 'redis' } },
      });
      expect(res.body).not.toContain('10.0.0.7');
    } finally {
      await app.close();
      await services.close();
    }
  });

  it('is 503 when the structured store is down', async () => {
    const services = await openTestServices();
    const app = await buildServer(services);
    try {
      await services.db.pool.end();
      const res = await app.inject({ method: 'GET', url: '/v1/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'degraded',
        backends: { structured: { ok: false } },
      });
    } finally {
      await app.close();
      await services.close().catch(() => undefined);
    }
  });
});
