// Traffic without a valid credential (unknown keys, no key, anonymous GraphQL) is limited per
// client address, and that limit can never lock out a valid key sent from the same address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { bearer, mintKey, startAccessServer, type AccessServer } from './access-server.ts';

describe('the per-address limit on unauthenticated requests', () => {
  let db: TestDatabase;
  let server: AccessServer;
  let key: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, { UNAUTHENTICATED_PER_MINUTE: '5' });
    key = await mintKey(server); // keys exist: no open-dev mode
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'GET', url, headers, remoteAddress: '203.0.113.7' });

  it('answers 401 up to the limit, then 429 with Retry-After; a valid key from that address still gets through', async () => {
    const bad = bearer('sk_live_0000000000000000000000000000000000000000');
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get('/v1/stores', bad)).statusCode);
    statuses.push((await get('/v1/stores')).statusCode); // no key at all counts the same
    expect(statuses).toEqual([401, 401, 401, 401, 401]);

    const refused = await get('/v1/stores', bad);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error).toMatchObject({
      code: 'rate_limited',
      details: { bucket: 'unauthenticated', limit: 5, window: 'minute' },
    });
    const anonymousGraphql = await server.app.inject({
      method: 'POST',
      url: '/graphql',
      remoteAddress: '203.0.113.7',
      headers: { 'content-type': 'application/json' },
      payload: { query: '{ __typename }' },
    });
    expect(anonymousGraphql.statusCode).toBe(429);

    expect((await get('/v1/stores', bearer(key))).statusCode).toBe(200);
    // discovery routes are never limited (contract part 5), and another address is not affected
    expect((await get('/v1/health')).statusCode).toBe(200);
    expect(
      (
        await server.app.inject({
          method: 'GET',
          url: '/v1/stores',
          headers: bad,
          remoteAddress: '198.51.100.9',
        })
      ).statusCode,
    ).toBe(401);
  });
});
