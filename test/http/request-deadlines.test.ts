// A client that trickles its body (a byte now and then) must not hold a socket, nor a stopping
// server: the request has a deadline, and shutdown closes whatever is still open after its grace.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeServer } from '../../app/server.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { startAccessServer, type AccessServer } from '../access/access-server.ts';

interface Trickler {
  /** everything the server sent back */
  received(): string;
  closed: Promise<void>;
  stop(): void;
}

/**
 * Sends the headers of a 60,000-byte body, then one byte every 100 ms (it would take 100 minutes).
 * Resolves once the server has the request and waits for its body (its "100 Continue").
 */
function trickle(port: number): Promise<Trickler> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        'POST /v1/scrapes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\nExpect: 100-continue\r\n\r\n',
      );
    });
    socket.once('data', () => {
      const timer = setInterval(() => socket.writable && socket.write(' '), 100);
      const closed = new Promise<void>((done) =>
        socket.on('close', () => {
          clearInterval(timer);
          done();
        }),
      );
      resolve({ received: () => answer, closed, stop: () => socket.destroy() });
    });
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
  });
}

describe('request deadlines', () => {
  let db: TestDatabase | undefined;
  let server: AccessServer | undefined;
  afterEach(async () => {
    await server?.close().catch(() => undefined);
    await db?.drop();
    server = undefined;
    db = undefined;
  });

  const start = async (env: Record<string, string>) => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, env);
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    return (server.app.server.address() as AddressInfo).port;
  };

  it('answers a body that does not arrive within REQUEST_TIMEOUT_MS with the bad_request envelope and closes the socket', async () => {
    const client = await trickle(await start({ REQUEST_TIMEOUT_MS: '1000' }));
    await client.closed;
    const answer = client.received().replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toMatchObject({
      error: { code: 'bad_request', details: { parameter: 'body' } },
    });
  });

  it('stops while a slow client is still sending: the grace over, its socket is closed', async () => {
    const client = await trickle(await start({ REQUEST_TIMEOUT_MS: '600000' }));
    let stillSending = true;
    void client.closed.then(() => (stillSending = false));
    await closeServer(server!.app, 300);
    // the server is closed although the client had 99 minutes of body left to send
    await client.closed;
    expect(stillSending).toBe(false);
    expect(server!.app.server.listening).toBe(false);
    // the request was in the middle of its body: no answer, only the closed socket
    expect(client.received()).toBe('HTTP/1.1 100 Continue\r\n\r\n');
  });

  it('serves a request that arrives while the server is stopping (within the grace), never a framework body', async () => {
    const port = await start({ REQUEST_TIMEOUT_MS: '600000' });
    // a connection in the middle of its request's headers is not idle: stopping does not drop it
    const late = net.connect(port, '127.0.0.1');
    late.on('error', () => undefined);
    let answer = '';
    late.on('data', (chunk) => (answer += chunk.toString()));
    await new Promise((resolve) => late.once('connect', resolve));
    late.write('GET /v1/health HTTP/1.1\r\nHost: x\r\n');
    // a slow client keeps the stopping server open for the grace
    const slow = await trickle(port);
    const stopping = closeServer(server!.app, 5_000);
    await vi.waitFor(() => expect(server!.app.server.listening).toBe(false));
    // the request arrives whole once the server is stopping
    late.write('\r\n');
    await vi.waitFor(() => expect(answer).toContain('\r\n\r\n{'), { timeout: 10_000 });
    await stopping;
    await slow.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      status: 'ok',
    });
  });
});
