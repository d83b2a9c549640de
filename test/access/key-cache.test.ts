// The key cache of src/access/authenticate.ts: a key is read from api_keys once per
// KEY_CACHE_TTL_MS, so a revocation made where this server is not told (another process without a
// shared Redis) takes effect within that bound, and one announced on the pub/sub (the web app's
// mutations, the keys CLI with REDIS_URL) at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/access/api-keys.ts';
import { announceKeysChanged, KEY_CACHE_TTL_MS } from '../../src/access/authenticate.ts';
import { hashApiKey } from '../../src/access/key-format.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { bearer, mintKey, startAccessServer, type AccessServer } from './access-server.ts';

describe('the key cache', () => {
  let db: TestDatabase;
  let server: AccessServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    // no response cache: each request here is about the key, not the catalog answer
    server = await startAccessServer(db.url, { RESPONSE_CACHE_TTL_MS: '0' });
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const status = async (key: string) =>
    (
      await server.app.inject({
        method: 'GET',
        url: '/v1/analytics/overview',
        headers: bearer(key),
      })
    ).statusCode;
  const idOf = async (key: string) =>
    (
      await server.services.db.prisma.apiKey.findUniqueOrThrow({
        where: { hash: hashApiKey(key) },
        select: { id: true },
      })
    ).id;

  it('stops accepting a key revoked behind its back within KEY_CACHE_TTL_MS', async () => {
    const key = await mintKey(server);
    expect(await status(key)).toBe(200);
    await revokeApiKey(server.services.db.prisma, await idOf(key));
    const revokedAt = Date.now();
    let answer = await status(key);
    while (answer === 200 && Date.now() - revokedAt < KEY_CACHE_TTL_MS + 1_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await status(key);
    }
    expect(answer).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(KEY_CACHE_TTL_MS + 200);
  }, 15_000);

  it('stops accepting it at once when the revocation is announced', async () => {
    const key = await mintKey(server);
    expect(await status(key)).toBe(200);
    await revokeApiKey(server.services.db.prisma, await idOf(key));
    await announceKeysChanged(server.services.pubsub, server.services.logger);
    // "at once": refused long before the cache's TTL could have expired the key (waits on the answer, not on time)
    const announcedAt = Date.now();
    await expect.poll(() => status(key), { timeout: KEY_CACHE_TTL_MS / 5, interval: 20 }).toBe(401);
    expect(Date.now() - announcedAt).toBeLessThan(KEY_CACHE_TTL_MS);
  });

  it('answers a cached key without reading api_keys (its row gone, the key works until the TTL ends)', async () => {
    const key = await mintKey(server);
    expect(await status(key)).toBe(200);
    await server.services.db.pool.query('DELETE FROM api_keys WHERE hash = $1', [hashApiKey(key)]);
    expect(await status(key)).toBe(200);
  });
});
