// GraphQL over HTTP (Yoga on Fastify: JSON, SSE, GraphiQL) and WebSocket (graphql-ws) on the same
// port, with guard rails (armor), persisted operations and error masking.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { buildServer } from '../../app/server.ts';
import { createGraphqlYoga } from '../../src/gateway/pipeline.ts';
import {
  operationHash,
  PersistedOperations,
  readManifest,
} from '../../src/gateway/persisted-operations.ts';
import { schema as graphqlSchema } from '../../src/gateway/schema.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { loadCatalogFixture } from '../support/catalog-fixture.ts';

let t: CatalogTestServices;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  t = await createTestServices({ queryTimeoutMs: 300 });
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
  app = await buildServer(t.services);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

async function post(body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

describe('GraphQL over HTTP', () => {
  it('answers a query with JSON', async () => {
    const { status, text } = await post({
      query: '{ store(domain: "acme-apparel.com") { domain monthlyVisits } }',
    });
    expect(status).toBe(200);
    expect(JSON.parse(text)).toEqual({
      data: { store: { domain: 'acme-apparel.com', monthlyVisits: 120_000 } },
      extensions: {
        cost: { requested: 3, limit: 20_000 },
        quota: {
          charged: { requests: 1, buckets: { storeLookups: 1 } },
          limits: expect.any(Array),
        },
      },
    });
  });

  it('keeps the contract error code and details, and never a stack trace', async () => {
    const { text } = await post({ query: '{ store(domain: "missing-store.com") { domain } }' });
    const body = JSON.parse(text);
    expect(body.errors[0]).toMatchObject({
      message: expect.stringContaining('missing-store.com'),
      extensions: { code: 'not_found', details: { domain: 'missing-store.com' } },
    });
    expect(text).not.toMatch(/stack|\.ts:\d+/);
  });

  it('turns a statement timeout into query_timeout, on raw SQL and Prisma reads alike', async () => {
    // another session holds a lock on stores; our statements wait for it until statement_timeout
    const blocker = new pg.Client({ connectionString: t.services.db.url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE stores IN ACCESS EXCLUSIVE MODE');
      const raw = JSON.parse((await post({ query: '{ stores { totalCount } }' })).text);
      expect(raw.errors[0].extensions.code).toBe('query_timeout');
      const prisma = JSON.parse(
        (await post({ query: '{ store(domain: "acme-apparel.com") { domain } }' })).text,
      );
      expect(prisma.errors[0].extensions.code).toBe('query_timeout');
      expect(JSON.stringify(prisma)).not.toContain('canceling statement');
    } finally {
      await blocker.query('ROLLBACK');
      await blocker.end();
    }
  });

  it('streams results as server-sent events when asked', async () => {
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: '{ apps(first: 1) { edges { node { slug } } } }' }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const text = await response.text();
    expect(text).toContain('event: next');
    expect(text).toContain('"slug":"klaviyo"');
  });

  it('serves GraphiQL to a browser', async () => {
    const response = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('GraphiQL');
  });
});

describe('guard rails', () => {
  it('rejects a query deeper than the limit before executing it', async () => {
    // store → products → edges → node → store → ... : 4 levels per round, 3 rounds = depth 14
    let selection = 'handle';
    for (let round = 0; round < 3; round++)
      selection = `store { products { edges { node { ${selection} } } } }`;
    const deep = `{ product(domain: "acme-apparel.com", handle: "classic-hoodie") { ${selection} } }`;
    const body = JSON.parse((await post({ query: deep })).text);
    expect(body.data).toBeUndefined();
    expect(body.errors.map((e: { message: string }) => e.message).join('\n')).toMatch(
      /depth limit/i,
    );
  });

  it('rejects an alias bomb', async () => {
    const aliases = Array.from(
      { length: 50 },
      (_, i) => `a${i}: analyticsOverview { stores }`,
    ).join(' ');
    const body = JSON.parse((await post({ query: `{ ${aliases} }` })).text);
    expect(body.data).toBeUndefined();
    expect(body.errors[0].message).toMatch(/alias/i);
  });
});

describe('persisted operations', () => {
  it('accepts every operation of the REST manifest: valid against the schema and within the guard rails', () => {
    const manifest = readManifest();
    const { schema, parse, validate } = createGraphqlYoga(
      t.services,
      new PersistedOperations(graphqlSchema, manifest),
    ).getEnveloped({});
    for (const [hash, document] of Object.entries(manifest)) {
      const errors = validate(schema, parse(document));
      expect(
        errors.map((e: { message: string }) => e.message),
        hash,
      ).toEqual([]);
    }
  });

  it('runs a document named by its sha256 hash; arbitrary documents stay allowed', async () => {
    const document = 'query AppBySlug($slug: String!) { app(slug: $slug) { name } }';
    const yoga = createGraphqlYoga(
      t.services,
      new PersistedOperations(graphqlSchema, { [operationHash(document)]: document }),
    );
    const byHash = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        variables: { slug: 'dsers' },
        extensions: { persistedQuery: { version: 1, sha256Hash: operationHash(document) } },
      }),
    });
    expect(await byHash.json()).toMatchObject({
      data: { app: { name: 'DSers AliExpress Dropshipping' } },
    });
    const unknown = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } },
      }),
    });
    expect(JSON.stringify(await unknown.json())).toContain('PersistedQueryNotFound');
  });
});

describe('GraphQL over WebSocket', () => {
  it('executes operations over graphql-ws on the same port and path', async () => {
    const client = createClient({
      url: `${base.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    try {
      const result = await new Promise<unknown>((resolve, reject) => {
        let value: unknown;
        client.subscribe(
          { query: '{ store(domain: "glow-skin.com") { name sources } }' },
          { next: (v) => (value = v), error: reject, complete: () => resolve(value) },
        );
      });
      expect(result).toEqual({
        data: {
          store: {
            name: 'Glow Skin',
            sources: [
              'postgres:stores',
              'postgres:legacy_store_summaries',
              'postgres:traffic_monthly',
            ],
          },
        },
        extensions: {
          cost: { requested: 3, limit: 20_000 },
          quota: {
            charged: { requests: 1, buckets: { storeLookups: 1 } },
            limits: expect.any(Array),
          },
        },
      });
    } finally {
      await client.dispose();
    }
  });
});
