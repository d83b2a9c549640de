// The typed client of clients/typescript against a live server on a seeded catalog: the README's
// three lines, then a search and a profile by the returned domain, a refused call's typed error,
// and a POST with a body. Its types come from the OpenAPI description (npm run codegen); tsc checks
// this file against them, so a route or field the client names but the API lacks fails the build.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStoreIntelligenceClient } from '@store-intelligence/client';
import { mintApiKey } from '../../src/access/api-keys.ts';
import { SEEDED } from '../../src/seed/seeded-catalog.ts';
import { startSeededServer, type SeededServer } from '../support/seeded-server.ts';

describe('typed TypeScript client', () => {
  let server: SeededServer;
  let apiKey: string;
  beforeAll(async () => {
    server = await startSeededServer({ stores: 40 });
    apiKey = (
      await mintApiKey(server.services.db.prisma, {
        accountExternalId: 'client-user',
        plan: 'starter',
      })
    ).key;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('searches, then reads the profile of a returned domain, typed end to end', async () => {
    const api = createStoreIntelligenceClient({ baseUrl: server.baseUrl, apiKey });
    const { data: found, error } = await api.GET('/v1/stores', {
      params: { query: { q: SEEDED.brand, limit: 5 } },
    });
    expect(error).toBeUndefined();
    // the plain list is typed as store cards: no cast
    const cards = found!.data;
    expect(cards.map((card) => card.domain)[0]).toBe(SEEDED.domain);
    expect(found!.page.total).toBeGreaterThanOrEqual(1);

    const { data: store, response } = await api.GET('/v1/stores/{domain}', {
      params: { path: { domain: cards[0]!.domain } },
    });
    expect(response.status).toBe(200);
    expect(store?.domain).toBe(SEEDED.domain);
    expect(store!.monthlyRevenueUsd.high).toBeGreaterThanOrEqual(store!.monthlyRevenueUsd.low);
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it("gives the contract's error envelope, typed, for a refused call", async () => {
    const api = createStoreIntelligenceClient({ baseUrl: server.baseUrl, apiKey });
    const { data, error, response } = await api.GET('/v1/stores/{domain}', {
      params: { path: { domain: 'not-in-the-catalog.example' } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error?.error.code).toBe('not_found');

    const anonymous = createStoreIntelligenceClient({ baseUrl: server.baseUrl });
    const refused = await anonymous.GET('/v1/usage');
    expect(refused.error?.error.code).toBe('unauthorized');
  });

  it('groups through groupStores and exports through exportList, each typed', async () => {
    const api = createStoreIntelligenceClient({ baseUrl: server.baseUrl, apiKey });
    const grouped = await api.groupStores({ groupBy: 'country' });
    expect(grouped.data!.meta.mode).toBe('grouped');
    expect(grouped.data!.data.reduce((sum, row) => sum + row.stores, 0)).toBe(
      grouped.data!.data.length > 0 ? 40 : 0,
    );

    const file = await api.exportList('/v1/stores', {
      format: 'ndjson',
      params: { query: { limit: 3 } },
    });
    expect(file.response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(file.summary).toEqual({ total: 40, rows: 3, complete: false });
    const lines = file
      .text!.trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { domain?: string; export?: unknown });
    expect(lines.slice(0, 3).every((line) => typeof line.domain === 'string')).toBe(true);
    expect(lines[3]).toEqual({ export: { total: 40, rows: 3, complete: false } });

    const products = await api.exportList('/v1/stores/{domain}/products', {
      format: 'csv',
      params: { path: { domain: SEEDED.domain } },
    });
    expect(products.text!.split('\r\n')[0]).toContain('title');
  });

  it('sends a JSON body', async () => {
    const api = createStoreIntelligenceClient({ baseUrl: server.baseUrl, apiKey });
    // a store the catalog has: no job, the already_exists answer
    const { data, response } = await api.POST('/v1/scrapes', { body: { domain: SEEDED.domain } });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ outcome: 'already_exists', domain: SEEDED.domain });
  });

  it('looks up a list of domains, typed', async () => {
    const api = createStoreIntelligenceClient({ baseUrl: server.baseUrl, apiKey });
    const { data, response } = await api.POST('/v1/stores/lookup', {
      body: { domains: [SEEDED.otherDomain, 'no-such-brand.store.example', SEEDED.domain] },
    });
    expect(response.status).toBe(200);
    expect(data!.data.map((card) => card.domain)).toEqual([SEEDED.otherDomain, SEEDED.domain]);
    expect(data!.notFound).toEqual(['no-such-brand.store.example']);
    expect(data!.moved).toEqual([]);
  });
});
