// MCP as an agent uses it, through the official SDK's own client: over Streamable HTTP at /mcp
// (initialize, tools/list with a tool for every /v1 data route, a search then a profile by the
// returned domain, charged to the caller's key, errors in the contract's envelope), and over stdio
// through `npm run mcp`'s relay.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogRoutes } from '../../rest/routes/index.ts';
import { mintApiKey } from '../../src/access/api-keys.ts';
import { SEEDED } from '../../src/seed/seeded-catalog.ts';
import { USAGE_RULES } from '../../rest/openapi/usage-rules.ts';
import { startSeededServer, type SeededServer } from '../support/seeded-server.ts';

type ToolAnswer = {
  isError?: boolean;
  structuredContent?: any;
  content: Array<{ type: string; text?: string }>;
};

describe('MCP', () => {
  let server: SeededServer;
  let key: string;

  const connect = async (headers: Record<string, string>) => {
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', server.baseUrl), {
        requestInit: { headers },
      }),
    );
    return client;
  };
  /** what is left of the key's storeSearches bucket, read off a REST answer's RateLimit header */
  const storeSearchesLeft = async () => {
    const res = await fetch(`${server.baseUrl}/v1/apps?q=judge`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    return res.headers.get('ratelimit');
  };

  beforeAll(async () => {
    server = await startSeededServer({ stores: 40 });
    key = (
      await mintApiKey(server.services.db.prisma, {
        accountExternalId: 'mcp-agent',
        plan: 'starter',
      })
    ).key;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("initializes with the contract's usage rules and lists one tool per /v1 data route, input schemas from the route table", async () => {
    const client = await connect({ 'X-Api-Key': key });
    expect(client.getServerVersion()?.name).toBe('store-intelligence');
    for (const rule of USAGE_RULES) expect(client.getInstructions()).toContain(rule);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      catalogRoutes.map((route) => route.operationId).sort(),
    );
    const search = tools.find((tool) => tool.name === 'searchStores')!;
    expect(search.description).toContain('GET /v1/stores');
    expect(search.inputSchema.properties).toMatchObject({
      q: { type: 'string' },
      limit: { type: 'integer', minimum: 1, maximum: 100 },
      isDropshipper: { type: 'boolean' },
    });
    expect(search.annotations?.readOnlyHint).toBe(true);
    const profile = tools.find((tool) => tool.name === 'getStore')!;
    expect(profile.inputSchema.required).toEqual(['domain']);
    const watch = tools.find((tool) => tool.name === 'createSignal')!;
    expect(watch.inputSchema.required).toContain('domain');
    expect(watch.annotations?.readOnlyHint).toBe(false);
    // a POST that only asks a question
    const lookup = tools.find((tool) => tool.name === 'lookupStores')!;
    expect(lookup.inputSchema.required).toEqual(['domains']);
    expect(lookup.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    await client.close();
  });

  it('looks up a list of domains through the lookupStores tool', async () => {
    const client = await connect({ 'X-Api-Key': key });
    const answer = (await client.callTool({
      name: 'lookupStores',
      arguments: { domains: [`https://www.${SEEDED.domain}`, 'no-such-brand.store.example'] },
    })) as ToolAnswer;
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent.data.map((card: { domain: string }) => card.domain)).toEqual([
      SEEDED.domain,
    ]);
    expect(answer.structuredContent.notFound).toEqual(['no-such-brand.store.example']);
    const bad = (await client.callTool({
      name: 'lookupStores',
      arguments: { domains: [] },
    })) as ToolAnswer;
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent.error).toMatchObject({
      code: 'bad_request',
      details: { parameter: 'domains' },
    });
    await client.close();
  });

  it('searches, then fetches the profile of a domain the search returned, charged to the key like REST', async () => {
    const client = await connect({ Authorization: `Bearer ${key}` });
    const before = await storeSearchesLeft();

    const search = (await client.callTool({
      name: 'searchStores',
      arguments: { q: SEEDED.brand, limit: 5 },
    })) as ToolAnswer;
    expect(search.isError).toBeFalsy();
    expect(search.structuredContent.page).toMatchObject({ limit: 5, offset: 0 });
    const domain = search.structuredContent.data[0].domain as string;
    expect(domain).toBe(SEEDED.domain);
    expect(JSON.parse(search.content[0]!.text!)).toEqual(search.structuredContent);

    const profile = (await client.callTool({
      name: 'getStore',
      arguments: { domain },
    })) as ToolAnswer;
    expect(profile.isError).toBeFalsy();
    expect(profile.structuredContent).toMatchObject({
      domain,
      monthlyRevenueUsd: { low: expect.any(Number), high: expect.any(Number) },
    });

    // the REST answer after the search counts it: one more storeSearches unit used than before it
    const left = (header: string | null) =>
      Number(/"storeSearches";r=(\d+)/.exec(header ?? '')?.[1]);
    expect(left(await storeSearchesLeft())).toBe(left(before) - 2);
    await client.close();
  });

  it("answers refused calls as tool errors carrying the contract's envelope", async () => {
    const client = await connect({ 'X-Api-Key': key });
    const missing = (await client.callTool({
      name: 'getStore',
      arguments: { domain: 'not-in-the-catalog.example' },
    })) as ToolAnswer;
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent.error.code).toBe('not_found');

    const tooMany = (await client.callTool({
      name: 'searchStores',
      arguments: { limit: 500 },
    })) as ToolAnswer;
    expect(tooMany.isError).toBe(true);
    expect(JSON.parse(tooMany.content[0]!.text!).error).toMatchObject({
      code: 'bad_request',
      details: { parameter: 'limit' },
    });

    const unknown = (await client.callTool({
      name: 'searchStores',
      arguments: { colour: 'red' },
    })) as ToolAnswer;
    expect(unknown.structuredContent.error).toMatchObject({
      code: 'bad_request',
      details: { parameter: 'colour' },
    });
    await client.close();
  });

  it("is stateless: POST only, GET and DELETE answer 405 in the contract's envelope", async () => {
    const get = await fetch(`${server.baseUrl}/mcp`, {
      headers: { 'x-api-key': key, accept: 'text/event-stream' },
    });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expect(((await get.json()) as { error: { code: string } }).error.code).toBe('bad_request');
  });

  it('refuses a caller without a valid key once keys exist', async () => {
    await expect(connect({})).rejects.toThrow(/"code":"unauthorized"/);
    await expect(
      connect({ 'X-Api-Key': 'sk_live_00000000000000000000000000000000' }),
    ).rejects.toThrow(/"code":"unauthorized"/);
  });

  it('serves desktop agents over stdio through `npm run mcp`, relayed with the key from the environment', async () => {
    const client = new Client({ name: 'desktop-agent', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: 'npm',
        args: ['run', '-s', 'mcp'],
        env: {
          ...(process.env as Record<string, string>),
          STORE_INTELLIGENCE_URL: server.baseUrl,
          STORE_INTELLIGENCE_API_KEY: key,
        },
        stderr: 'pipe',
      }),
    );
    expect((await client.listTools()).tools).toHaveLength(catalogRoutes.length);
    const search = (await client.callTool({
      name: 'searchStores',
      arguments: { q: SEEDED.brand, limit: 1 },
    })) as ToolAnswer;
    expect(search.structuredContent.data[0].domain).toBe(SEEDED.domain);
    await client.close();
  });
});
