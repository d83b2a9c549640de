// Requests at the edges of HTTP, JSON and MCP that Node, Fastify or the MCP SDK used to answer on
// their own terms: each gets the contract's envelope, or the protocol's own error.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import { startAccessServer, type AccessServer } from '../../access/access-server.ts';

describe('requests at the edges', () => {
  let db: TestDatabase;
  let server: AccessServer;
  let port: number;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url);
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    port = (server.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  /** Sends raw bytes, resolves with the status code and JSON body of the answer (the connection is closed by the server or after 3 s). */
  const raw = (text: string) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('error', reject);
      const settle = () => {
        const [head = '', body = ''] = answer.split('\r\n\r\n');
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
        try {
          resolve({ status, body: JSON.parse(body) });
        } catch {
          resolve({ status, body });
        }
      };
      socket.on('close', settle);
      setTimeout(() => socket.destroy(), 3_000);
    });

  it('answers an HTTP/1.1 request without a Host header with the bad_request envelope', async () => {
    const answer = await raw('GET /v1/stores HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: {
        code: 'bad_request',
        message: 'An HTTP/1.1 request needs a Host header.',
        details: { parameter: 'Host', rule: 'required in HTTP/1.1' },
      },
    });
  });

  it('answers CONNECT with the bad_request envelope rather than a silent close', async () => {
    const answer = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 'bad_request',
      details: { parameter: 'method' },
    });
    expect(answer.body.error.message).toContain('CONNECT');
  });

  it('refuses a JSON body with a "__proto__" or constructor.prototype key as such, not as invalid JSON', async () => {
    for (const payload of [
      '{"domain":"shop.test","__proto__":{"admin":true}}',
      '{"domain":"shop.test","constructor":{"prototype":{"admin":true}}}',
    ]) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/v1/scrapes',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
      expect(response.json().error.code).toBe('bad_request');
      expect(response.json().error.message, payload).toContain('__proto__');
      expect(response.json().error.details).toEqual({
        parameter: 'body',
        rule: 'must not contain "__proto__" or "constructor.prototype" keys',
      });
    }
    // and broken JSON is still told it is broken
    const broken = await server.app.inject({
      method: 'POST',
      url: '/v1/scrapes',
      headers: { 'content-type': 'application/json' },
      payload: '{"domain":',
    });
    expect(broken.json().error.message).toBe('The request body is not valid JSON.');
  });

  it("answers MCP tools/call with arguments that are not an object with JSON-RPC's invalid params (-32602), in a sentence", async () => {
    for (const args of ['searchStores', ['q'], null, 7]) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        payload: {
          jsonrpc: '2.0',
          id: 5,
          method: 'tools/call',
          params: { name: 'searchStores', arguments: args },
        },
      });
      const body = response.json();
      expect(body.id, JSON.stringify(args)).toBe(5);
      expect(body.error.code, JSON.stringify(args)).toBe(-32602);
      expect(body.error.message).toMatch(
        /^Invalid params: params\.arguments must be an object of the tool's parameters, not /,
      );
    }
  });

  it("answers a stdio line that is not JSON with JSON-RPC's parse error (-32700), and one that is not a message with -32600", async () => {
    const relay = spawn(process.execPath, ['--import', 'tsx', 'rest/mcp/stdio.ts'], {
      env: { ...process.env, STORE_INTELLIGENCE_URL: 'http://127.0.0.1:9' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      const lines: any[] = [];
      relay.stdout.setEncoding('utf8');
      let buffer = '';
      const two = new Promise<void>((resolve) =>
        relay.stdout.on('data', (chunk: string) => {
          buffer += chunk;
          const parts = buffer.split('\n');
          buffer = parts.pop()!;
          lines.push(...parts.filter(Boolean).map((line) => JSON.parse(line)));
          if (lines.length >= 2) resolve();
        }),
      );
      relay.stdin.write('this is not json\n');
      relay.stdin.write('{"hello":"world"}\n');
      await two;
      expect(lines).toEqual([
        {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: 'Parse error: the line is not JSON' },
        },
        {
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32600,
            message: 'Invalid Request: the line is not a JSON-RPC 2.0 message',
          },
        },
      ]);
    } finally {
      relay.kill();
    }
  });
});
