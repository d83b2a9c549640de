// A root lookup that finds nothing answers null at its own path with not_found there, and the
// other root fields of the same operation keep their data (as node(id:) does). REST's routes over
// the same fields keep answering 404 (test/rest/stores.test.ts, apps.test.ts, products.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../app/server.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { loadCatalogFixture } from '../support/catalog-fixture.ts';

let t: CatalogTestServices;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  t = await createTestServices();
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
  app = await buildServer(t.services);
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

async function graphql(query: string) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { data?: Record<string, unknown> | null; errors?: any[] },
  };
}

describe('root lookups that find nothing', () => {
  const lookups = [
    [
      'store',
      '{ analyticsOverview { stores } missing: store(domain: "does-not-exist.example") { domain } }',
    ],
    ['app', '{ analyticsOverview { stores } missing: app(slug: "no-such-app") { slug } }'],
    [
      'product',
      '{ analyticsOverview { stores } missing: product(domain: "acme-apparel.com", handle: "no-such-product") { handle } }',
    ],
    [
      'scrapeRequest',
      '{ analyticsOverview { stores } missing: scrapeRequest(id: "00000000-0000-4000-8000-000000000000") { id } }',
    ],
    [
      'signal',
      '{ analyticsOverview { stores } missing: signal(domain: "does-not-exist.example") { domain } }',
    ],
  ] as const;

  for (const [field, query] of lookups) {
    it(`${field}: null at its path with not_found, the rest of the page kept`, async () => {
      const { status, body } = await graphql(query);
      expect(status).toBe(200);
      expect(body.data).not.toBeNull();
      expect(body.data!.missing).toBeNull();
      expect(body.data!.analyticsOverview).toEqual({ stores: expect.any(Number) });
      expect(body.errors).toHaveLength(1);
      expect(body.errors![0]).toMatchObject({
        path: ['missing'],
        extensions: { code: 'not_found' },
      });
    });
  }

  it('REST keeps answering 404 for the same lookups', async () => {
    for (const path of [
      '/v1/stores/does-not-exist.example',
      '/v1/apps/no-such-app',
      '/v1/scrapes/00000000-0000-4000-8000-000000000000',
      '/v1/signals/does-not-exist.example',
      '/v1/products/acme-apparel.com/no-such-product',
    ]) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as any).error.code, path).toBe('not_found');
    }
  });
});
