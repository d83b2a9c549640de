// The typed client of clients/typescript against a live server on a seeded catalog: the README's
// three lines, then a search and a profile by the returned domain, a refused call's typed error,
// and a POST with a body. Its types come from the OpenAPI description (npm run codegen); tsc checks
// this file against them, so a route or field the client names but the API lacks fails the build.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStoreIntelligenceClient, type components } from '@store-intelligence/client';
import { mintApiKey } from '../../src/access/api-keys.ts';
import { SEEDED } from '../../src/discovery/seeded-catalog.ts';
import { startSeededServer, type SeededServer } from '../support/seeded-server.ts';

describe('typed TypeScript client', () => {
  let server: SeededServer;
  let apiKey: string;
  beforeAll(async () => {
    server = await startSeededServer({ stores: 40 });
    apiKey = (await mintApiKey(server.services.db.prisma, { accountExternalId: 'client-user', plan: 'starter' })).key;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('searches, then reads the profile of a returned domain, typed end to end', async () => {
    const api = createStoreIntelligenceClient({ baseUrl: server.baseUrl, apiKey });
    const { data: found, error } = await api.GET('/v1/stores', { params: { query: { q: SEEDED.brand, limit: 5 } } });
    expect(error).toBeUndefined();
    const cards = (found as components['schemas']['StoreList']).data;
    expect(cards[0]!.domain).toBe(SEEDED.domain);

    const { data: store, response } = await api.GET('/v1/stores/{domain}', { params: { path: { domain: cards[0]!.domain } } });
    expect(response.status).toBe(200);
    expect(store?.domain).toBe(SEEDED.domain);
    expect(store!.monthlyRevenueUsd.high).toBeGreaterThanOrEqual(store!.monthlyRevenueUsd.low);
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it('gives the contract\'s error envelope, typed, for a refused call', async () => {
    const api = createStoreIntelligenceClient({ baseUrl: server.baseUrl, apiKey });
    const { data, error, response } = await api.GET('/v1/stores/{domain}', { params: { path: { domain: 'not-in-the-catalog.example' } } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error?.error.code).toBe('not_found');

    const anonymous = createStoreIntelligenceClient({ baseUrl: server.baseUrl });
    const refused = await anonymous.GET('/v1/usage');
    expect(refused.error?.error.code).toBe('unauthorized');
  });

  it('sends a JSON body', async () => {
    const api = createStoreIntelligenceClient({ baseUrl: server.baseUrl, apiKey });
    // a store the catalog has: no job, the already_exists answer
    const { data, response } = await api.POST('/v1/scrapes', { body: { domain: SEEDED.domain } });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ outcome: 'already_exists', domain: SEEDED.domain });
  });
});
