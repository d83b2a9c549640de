// What a WebSocket client may cost before it has shown a key: no message larger than the HTTP body
// limit is buffered (the socket is closed with 1009, "message too big"), and one address holds at
// most MAX_UNAUTHENTICATED_SOCKETS_PER_ADDRESS sockets that have not been authorised yet.
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { BODY_LIMIT_BYTES } from '../../app/server.ts';
import { MAX_UNAUTHENTICATED_SOCKETS_PER_ADDRESS } from '../../src/gateway/websocket.ts';
import { mintKey, startAccessServer, type AccessServer } from './access-server.ts';

const PROTOCOL = 'graphql-transport-ws';
const logged = (server: AccessServer) =>
  server.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('WebSocket limits before authentication', () => {
  let db: TestDatabase;
  let server: AccessServer;
  let url: string;
  let key: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url);
    key = await mintKey(server);
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const address = server.app.server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/graphql`;
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const open = (options: WebSocket.ClientOptions = {}) =>
    new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(url, PROTOCOL, options);
      socket.once('open', () => resolve(socket));
      socket.once('unexpected-response', (_request, response) =>
        reject(
          Object.assign(new Error('refused'), {
            status: response.statusCode,
            headers: response.headers,
          }),
        ),
      );
      socket.once('error', reject);
    });
  const closeCodeOf = (socket: WebSocket) =>
    new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));

  it('closes a socket whose first frame (a 10 MiB connection_init) is over the body limit with 1009', async () => {
    // built before the socket opens, and sent unmasked (an all-zero mask): the client, in this
    // process, must not hold the event loop while the server waits for connection_init
    const frame = JSON.stringify({
      type: 'connection_init',
      payload: { padding: 'x'.repeat(10 * 1024 * 1024) },
    });
    const socket = await open({ generateMask: (mask) => mask.fill(0) });
    const closed = closeCodeOf(socket);
    socket.on('error', () => undefined);
    const printed = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn')];
    try {
      socket.send(frame);
      expect(await closed).toBe(1009);
      // said once, in the structured log, as a client's fault (a warning, no stack); nothing printed beside it
      await expect
        .poll(() => logged(server).filter((line) => line.reason === 'message_too_big'))
        .toEqual([
          expect.objectContaining({
            level: 40,
            reason: 'message_too_big',
            closeCode: 1009,
            limitBytes: BODY_LIMIT_BYTES,
          }),
        ]);
      for (const spy of printed) expect(spy).not.toHaveBeenCalled();
      expect(JSON.stringify(logged(server))).not.toContain('    at ');
    } finally {
      for (const spy of printed) spy.mockRestore();
    }
  });

  it('accepts a connection_init just under the limit', async () => {
    const socket = await open();
    const acked = new Promise<string>((resolve) =>
      socket.once('message', (data) => resolve(String(data))),
    );
    const padding = 'x'.repeat(BODY_LIMIT_BYTES - 1024);
    socket.send(
      JSON.stringify({
        type: 'connection_init',
        payload: { Authorization: `Bearer ${key}`, padding },
      }),
    );
    expect(JSON.parse(await acked)).toEqual({ type: 'connection_ack' });
    socket.close();
  });

  it(`refuses an address's socket beyond ${MAX_UNAUTHENTICATED_SOCKETS_PER_ADDRESS} unauthorised ones with 429, until one is authorised`, async () => {
    const waiting = await Promise.all(
      Array.from({ length: MAX_UNAUTHENTICATED_SOCKETS_PER_ADDRESS }, open),
    );
    try {
      const refused = await open().then(
        (socket) => {
          socket.close();
          return undefined;
        },
        (error: { status?: number; headers?: Record<string, string> }) => error,
      );
      expect(refused?.status).toBe(429);
      expect(refused?.headers?.['retry-after']).toBe('1');
      // one of them shows a key: its address may open another
      const acked = new Promise((resolve) => waiting[0]!.once('message', resolve));
      waiting[0]!.send(
        JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${key}` } }),
      );
      await acked;
      const another = await open();
      another.close();
    } finally {
      for (const socket of waiting) socket.close();
    }
  });
});

// The per-address cap counts the client the HTTP limiter counts (src/access/client-address.ts):
// behind a trusted proxy, the address the proxy forwarded, an IPv6 client by its /64; a caller
// reaching the server directly cannot pick its own count by sending X-Forwarded-For.
describe('WebSocket per-address cap and TRUST_PROXY', () => {
  let db: TestDatabase;
  let server: AccessServer | undefined;
  let url: string;
  const opened: WebSocket[] = [];
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterEach(async () => {
    for (const socket of opened.splice(0)) socket.terminate();
    await server?.close();
    server = undefined;
  });
  afterAll(async () => {
    await db?.drop();
  });

  const start = async (env: Record<string, string> = {}) => {
    server = await startAccessServer(db.url, env);
    await mintKey(server);
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const address = server.app.server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/graphql`;
  };
  /** opens a socket that says it was forwarded for `client`; the refusal's status when refused */
  const openFor = (client: string) =>
    new Promise<number | 'open'>((resolve, reject) => {
      const socket = new WebSocket(url, PROTOCOL, { headers: { 'x-forwarded-for': client } });
      opened.push(socket);
      socket.once('open', () => resolve('open'));
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode!));
      socket.once('error', reject);
    });
  const fill = async (clients: string[]) => {
    const outcomes = [];
    for (const client of clients) outcomes.push(await openFor(client));
    return outcomes;
  };
  const CAP = MAX_UNAUTHENTICATED_SOCKETS_PER_ADDRESS;
  const many = (count: number, address: (i: number) => string) =>
    Array.from({ length: count }, (_, i) => address(i));

  it('behind a trusted proxy, each forwarded client has its own cap', async () => {
    await start({ TRUST_PROXY: '127.0.0.1' });
    expect(await fill(many(CAP, () => '198.51.100.7'))).toEqual(many(CAP, () => 'open'));
    // the same client once more: over its cap
    expect(await openFor('198.51.100.7')).toBe(429);
    // another client behind the same proxy: its own cap
    expect(await openFor('198.51.100.8')).toBe('open');
  });

  it('counts a forwarded IPv6 client by its /64', async () => {
    await start({ TRUST_PROXY: '127.0.0.1' });
    expect(await fill(many(CAP, (i) => `2001:db8:7:7::${i + 1}`))).toEqual(many(CAP, () => 'open'));
    // another address of the same /64 shares its count; another /64 has its own
    expect(await openFor('2001:db8:7:7:ffff::1')).toBe(429);
    expect(await openFor('2001:db8:7:8::1')).toBe('open');
  });

  it('without TRUST_PROXY ignores X-Forwarded-For: every socket counts as the TCP peer', async () => {
    await start();
    expect(await fill(many(CAP, (i) => `198.51.100.${i + 1}`))).toEqual(many(CAP, () => 'open'));
    expect(await openFor('198.51.100.200')).toBe(429);
  });
});
