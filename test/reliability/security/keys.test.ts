// API keys at rest and in flight: the database keeps only their SHA-256, a presented key is
// compared in constant time (crypto.timingSafeEqual over equal-length digests), a near miss is
// refused exactly like a wild guess, and a key never shows up in a log line or in an answer,
// wherever a caller puts it (headers, query string, path, body, GraphQL variables, request id).
import * as crypto from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KeyAuthenticator } from '../../../src/access/authenticate.ts';
import { hashApiKey } from '../../../src/access/key-format.ts';
import { migrateJobQueue } from '../../../src/platform/jobs/job-queue.ts';
import {
  SERVICE_TOKEN,
  bearer,
  mintKey,
  startAccessServer,
  type AccessServer,
} from '../../access/access-server.ts';
import { loadCatalogFixture } from '../../support/catalog-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';

// the real comparison, observed: which digests the authentication code compares, and how
vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});
const timingSafeEqual = vi.mocked(crypto.timingSafeEqual);

let db: TestDatabase;
let server: AccessServer;
let key: string;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startAccessServer(db.url);
  await migrateJobQueue(server.services.db.pool);
  await loadCatalogFixture(server.services.db.pool, server.services.legacy);
  key = await mintKey(server, { plan: 'pro', accountExternalId: 'keys-test' });
});
afterAll(async () => {
  await server?.close();
  await db?.drop();
});

/** keys that differ from `key` by one character, one character too many or too few, or case */
function nearMisses(of: string): string[] {
  const flip = (c: string) => (c === 'a' ? 'b' : 'a');
  return [
    of.slice(0, -1) + flip(of.at(-1)!),
    of.slice(0, 8) + flip(of[8]!) + of.slice(9),
    of.slice(0, -1),
    `${of}a`,
    of.toUpperCase(),
    ` ${of}x`,
  ];
}

describe('keys at rest', () => {
  it('keeps only the SHA-256 of a key, and 12 characters of it for listings', async () => {
    const { rows } = await server.services.db.pool.query(
      'SELECT k.*, row_to_json(k)::text AS everything FROM api_keys k',
    );
    const row = rows.find((r) => r.hash === hashApiKey(key));
    expect(row).toBeDefined();
    expect(row.hash).toBe(crypto.createHash('sha256').update(key).digest('hex'));
    expect(row.prefix).toBe(key.slice(0, 12));
    // no column holds the key, nor its secret part past the listed prefix
    expect(row.everything).not.toContain(key);
    expect(row.everything).not.toContain(key.slice(12));
  });
});

describe('comparing a presented key', () => {
  it('compares equal-length SHA-256 digests with crypto.timingSafeEqual', async () => {
    const authenticator = new KeyAuthenticator(server.services.db.pool, server.services.logger);
    timingSafeEqual.mockClear();
    await expect(authenticator.authenticate(key)).resolves.toMatchObject({
      kind: 'key',
      keyPrefix: key.slice(0, 12),
    });
    expect(timingSafeEqual).toHaveBeenCalledTimes(1);
    const [stored, presented] = timingSafeEqual.mock.calls[0]!.map((b) =>
      Buffer.from(b as Uint8Array),
    );
    expect(stored!.length).toBe(32);
    expect(presented!.length).toBe(32);
    expect(presented!.toString('hex')).toBe(hashApiKey(key));
  });

  it('refuses every near miss exactly like a wild guess: same status, code and message', async () => {
    const wild = await server.app.inject({
      method: 'GET',
      url: '/v1/analytics/overview',
      headers: bearer(`sk_live_${'Z'.repeat(32)}`),
    });
    expect(wild.statusCode).toBe(401);
    for (const nearMiss of nearMisses(key)) {
      for (const headers of [bearer(nearMiss.trim()), { 'x-api-key': nearMiss }]) {
        const res = await server.app.inject({
          method: 'GET',
          url: '/v1/analytics/overview',
          headers,
        });
        expect(res.statusCode, nearMiss).toBe(401);
        expect(res.json(), nearMiss).toEqual(wild.json());
      }
    }
  });

  it("compares the web app's service token the same way: digests, constant time", async () => {
    timingSafeEqual.mockClear();
    const nearMiss = await server.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': `${SERVICE_TOKEN.slice(0, -1)}X` },
      payload: { query: '{ apiKeys { prefix } }' },
    });
    expect(nearMiss.json().errors[0].extensions.code).toBe('unauthorized');
    expect(timingSafeEqual).toHaveBeenCalled();
    for (const call of timingSafeEqual.mock.calls) {
      expect((call[0] as Uint8Array).byteLength).toBe(32);
      expect((call[1] as Uint8Array).byteLength).toBe(32);
    }
  });
});

describe('a key never leaks', () => {
  it('into a log line or an answer, wherever the caller puts it', async () => {
    const other = await mintKey(server, { plan: 'pro' });
    const revoked = await mintKey(server, { plan: 'pro' });
    await server.services.db.pool.query('UPDATE api_keys SET revoked_at = now() WHERE hash = $1', [
      hashApiKey(revoked),
    ]);
    const secrets = [key, other, revoked, ...nearMisses(key).map((k) => k.trim())];
    const json = { 'content-type': 'application/json' };
    const requests: InjectOptions[] = [
      { method: 'GET', url: '/v1/stores?limit=1', headers: bearer(key) },
      { method: 'GET', url: '/v1/stores?limit=1', headers: { 'x-api-key': key } },
      { method: 'GET', url: '/v1/stores', headers: bearer(revoked) },
      { method: 'GET', url: '/v1/stores', headers: { authorization: `Bearer ${key} extra` } },
      { method: 'GET', url: '/v1/stores', headers: { ...bearer(key), 'x-api-key': other } },
      ...nearMisses(key).map((nearMiss) => ({
        method: 'GET' as const,
        url: '/v1/stores',
        headers: { 'x-api-key': nearMiss },
      })),
      { method: 'GET', url: `/v1/stores?api_key=${key}` },
      { method: 'GET', url: `/v1/stores?q=${key}`, headers: bearer(other) },
      { method: 'GET', url: `/v1/stores?limit=${key}`, headers: bearer(other) },
      { method: 'GET', url: `/v1/scrapes/${key}`, headers: bearer(other) },
      { method: 'GET', url: `/v1/apps/${key}`, headers: bearer(other) },
      { method: 'GET', url: `/v1/stores/${key}.com`, headers: bearer(other) },
      {
        method: 'POST',
        url: '/v1/scrapes',
        headers: { ...bearer(other), ...json },
        payload: JSON.stringify({ domain: key }),
      },
      {
        method: 'POST',
        url: '/v1/scrapes',
        headers: { ...bearer(other), ...json },
        payload: JSON.stringify({
          domain: 'a.example',
          callbackUrl: `https://${key}@hooks.example.com/`,
        }),
      },
      {
        method: 'POST',
        url: '/v1/scrapes',
        headers: { ...bearer(other), ...json },
        payload: `{"domain": "${key}`,
      },
      { method: 'GET', url: '/v1/stores', headers: { ...bearer(key), 'x-request-id': key } },
      {
        method: 'POST',
        url: '/graphql',
        headers: { ...bearer(other), ...json },
        payload: JSON.stringify({
          query: 'query ($d: String!) { store(domain: $d) { domain } }',
          variables: { d: key },
        }),
      },
      {
        method: 'POST',
        url: '/graphql',
        headers: { ...bearer(other), ...json },
        payload: JSON.stringify({
          query: 'query ($d: Int) { stores(first: $d) { totalCount } }',
          variables: { d: key },
        }),
      },
      {
        method: 'POST',
        url: '/graphql',
        headers: { ...json, 'x-api-key': revoked },
        payload: JSON.stringify({ query: '{ stores { totalCount } }' }),
      },
      { method: 'GET', url: `/graphql?query=%7B__typename%7D&apiKey=${key}` },
    ];

    const answers: Array<{ request: string; answer: string }> = [];
    for (const request of requests) {
      const res = await server.app.inject(request);
      expect(res.statusCode, `${request.method} ${request.url}`).toBeLessThan(500);
      answers.push({
        request: `${request.method} ${request.url}`,
        answer: `${JSON.stringify(res.headers)} ${res.body}`,
      });
    }
    const logs = server.logLines.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(logs, 'the logs').not.toContain(secret);
      // the part past the 12 characters a listing shows: no fragment of the secret either
      expect(logs, 'the logs').not.toContain(secret.slice(12, 40));
      for (const { request, answer } of answers)
        expect(answer, `the answer to ${request}`).not.toContain(secret.slice(12, 40));
    }
  });
});
