// What a refused caller is told: every 401 carries WWW-Authenticate (RFC 6750's Bearer challenge,
// which MCP clients read to learn how to authenticate), a bad key is told how to mint one as a
// missing key is, and GET /v1/usage answers while the key is rate-limited without counting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { bearer, mintKey, startAccessServer, type AccessServer } from './access-server.ts';

const PER_MINUTE = 3;
const MINT_COMMAND = 'npm run keys -- create';

describe('401 answers and /v1/usage while rate-limited', () => {
  let db: TestDatabase;
  let server: AccessServer;
  let key: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, {
      PLAN_LIMITS_JSON: JSON.stringify({ starter: { perMinute: PER_MINUTE } }),
    });
    key = await mintKey(server);
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'GET', url, headers });

  it('challenges a request without a key with Bearer and a realm', async () => {
    const res = await get('/v1/stores');
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="store-intelligence"');
    expect(res.json().error.message).toContain(MINT_COMMAND);
  });

  it('answers a bad key with invalid_token and how to mint a key', async () => {
    const res = await get('/v1/stores', bearer('sk_live_0000000000000000000000000000000000000000'));
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe(
      'Bearer realm="store-intelligence", error="invalid_token"',
    );
    expect(res.json().error).toMatchObject({ code: 'unauthorized' });
    expect(res.json().error.message).toContain(MINT_COMMAND);
  });

  it('challenges MCP callers too, naming the protected-resource metadata', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        host: 'api.example.test',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe(
      'Bearer realm="store-intelligence", resource_metadata="http://api.example.test/.well-known/oauth-protected-resource/mcp"',
    );
  });

  it('serves the protected-resource metadata MCP clients look up', async () => {
    const res = await get('/.well-known/oauth-protected-resource/mcp', {
      host: 'api.example.test',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      resource: 'http://api.example.test/mcp',
      bearer_methods_supported: ['header'],
    });
  });

  it('answers /v1/usage while the key is rate-limited, and never counts it', async () => {
    for (let i = 0; i < PER_MINUTE; i++)
      expect((await get('/v1/apps', bearer(key))).statusCode).toBe(200);
    expect((await get('/v1/apps', bearer(key))).statusCode).toBe(429);

    for (let i = 0; i < PER_MINUTE + 2; i++) {
      const usage = await get('/v1/usage', bearer(key));
      expect(usage.statusCode).toBe(200);
      const perMinute = usage.json().limits.find((l: { name: string }) => l.name === 'perMinute');
      expect(perMinute).toMatchObject({ limit: PER_MINUTE, used: PER_MINUTE, remaining: 0 });
      const perKeyDaily = usage
        .json()
        .limits.find((l: { name: string }) => l.name === 'perKeyDaily');
      expect(perKeyDaily.used).toBe(PER_MINUTE);
    }
  });
});
