// What a WebSocket client may cost before it has shown a key: no message larger than the HTTP body
// limit is buffered (the socket is closed with 1009, "message too big"), and one address holds at
// most MAX_UNAUTHENTICATED_SOCKETS_PER_ADDRESS sockets that have not been authorised yet.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { BODY_LIMIT_BYTES } from '../../app/server.ts';
import { MAX_UNAUTHENTICATED_SOCKETS_PER_ADDRESS } from '../../src/gateway/websocket.ts';
import { mintKey, startAccessServer, type AccessServer } from './access-server.ts';

const PROTOCOL = 'graphql-transport-ws';

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
    socket.send(frame);
    expect(await closed).toBe(1009);
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
