// Every MCP message counts against the key's per-minute rate, not only tools/call (a tools/call
// through the charge of the route it runs, any other message here), and the tool list is built once
// for the route table, not per request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogRoutes } from '../../rest/routes/index.ts';
import { mcpToolsOf } from '../../rest/mcp/tools.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { bearer, mintKey, startAccessServer, type AccessServer } from '../access/access-server.ts';

const PER_MINUTE = 4;

describe('MCP requests and the per-minute rate', () => {
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

  const mcp = (message: object) =>
    server.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        ...bearer(key),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      payload: message,
    });

  it('counts tools/list and ping like any request: past the rate they answer 429, and REST is refused too', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_MINUTE; i++)
      statuses.push(
        (await mcp({ jsonrpc: '2.0', id: i, method: i % 2 ? 'ping' : 'tools/list' })).statusCode,
      );
    expect(statuses).toEqual(Array(PER_MINUTE).fill(200));

    const refused = await mcp({ jsonrpc: '2.0', id: 99, method: 'tools/list' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.json().error).toMatchObject({
      code: 'rate_limited',
      details: { bucket: 'perMinute', limit: PER_MINUTE, window: 'minute' },
    });
    expect(
      (await server.app.inject({ method: 'GET', url: '/v1/apps', headers: bearer(key) }))
        .statusCode,
    ).toBe(429);
  });

  it('builds the tool list once per route table', () => {
    const tools = mcpToolsOf(catalogRoutes);
    expect(tools.length).toBe(catalogRoutes.length);
    expect(mcpToolsOf(catalogRoutes)).toBe(tools);
  });
});
