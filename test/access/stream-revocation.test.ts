// Every long-lived answer ends once its key is revoked, within the key cache's TTL (plus one
// recheck), even when the revocation is not announced (revoked by another process without Redis):
// GraphQL over SSE, the operations console's live feed (SSE, read as console.js reads it; its
// crawler panels use the same transport), GraphQL over WebSocket. MCP holds no stream open (every answer is one JSON response).
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { sseEvents } from '../support/sse-events.ts';
import { revokeApiKey } from '../../src/access/api-keys.ts';
import { KEY_CACHE_TTL_MS } from '../../src/access/authenticate.ts';
import { displayPrefix } from '../../src/access/key-format.ts';
import { bearer, mintKey, startAccessServer, type AccessServer } from './access-server.ts';

/** the cache forgets the key within its TTL; one recheck later (1 s) the stream has ended; 2 s of slack for a busy machine */
const ENDS_WITHIN_MS = KEY_CACHE_TTL_MS + 1_000 + 2_000;

describe('long-lived streams of a revoked key', () => {
  let db: TestDatabase;
  let server: AccessServer;
  let base: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url);
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const address = server.app.server.address();
    base = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  /** Opens a GET subscription over SSE (as the attacker and the console do); resolves once it is open. */
  async function openSse(query: string, key: string) {
    const abort = new AbortController();
    const response = await fetch(`http://${base}/graphql?query=${encodeURIComponent(query)}`, {
      headers: { accept: 'text/event-stream', ...bearer(key) },
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    const events: any[] = [];
    const ended = (async () => {
      for await (const event of sseEvents(response.body!)) events.push(event);
      return Date.now();
    })();
    return { events, ended, close: () => abort.abort() };
  }

  /** Revokes the key in the database only: no announcement, so only the cache's TTL bounds it. */
  const revokeBehindItsBack = (key: string) =>
    revokeApiKey(server.services.db.prisma, displayPrefix(key));

  const withinBound = <T>(promise: Promise<T>) =>
    Promise.race([
      promise,
      new Promise<never>((_, reject) =>
        setTimeout(
          () =>
            reject(
              new Error(`the stream still runs ${ENDS_WITHIN_MS} ms after its key was revoked`),
            ),
          ENDS_WITHIN_MS,
        ),
      ),
    ]);

  it('ends a GraphQL subscription over SSE, its last event saying unauthorized', async () => {
    const key = await mintKey(server);
    const stream = await openSse('subscription { recentScrapes { id status } }', key);
    try {
      await revokeBehindItsBack(key);
      const revokedAt = Date.now();
      const endedAt = await withinBound(stream.ended);
      expect(endedAt - revokedAt).toBeLessThan(ENDS_WITHIN_MS);
      expect(stream.events.at(-1)).toMatchObject({
        errors: [{ extensions: { code: 'unauthorized' } }],
      });
      // and the key opens no new stream
      const again = await fetch(
        `http://${base}/graphql?query=${encodeURIComponent('subscription { recentScrapes { id } }')}`,
        {
          headers: { accept: 'text/event-stream', ...bearer(key) },
        },
      );
      expect(again.status).toBe(401);
    } finally {
      stream.close();
    }
  });

  it("ends the operations console's live feed, read as console.js reads it, with a refusal it shows as 'key needed'", async () => {
    const key = await mintKey(server);
    // console.js's follow(): GET with query and variables, then `event: next` frames
    const query = 'subscription RecentScrapes { recentScrapes { id domain status updatedAt } }';
    const response = await fetch(
      `http://${base}/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent('{}')}`,
      {
        headers: { accept: 'text/event-stream', ...bearer(key) },
      },
    );
    expect(response.status).toBe(200);
    const frames: Array<{ event?: string; data: string }> = [];
    const ended = (async () => {
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          frames.push({
            event: /^event: (.*)$/m.exec(frame)?.[1],
            data: frame
              .split('\n')
              .filter((l) => l.startsWith('data:'))
              .map((l) => l.slice(5).trim())
              .join('\n'),
          });
        }
      }
    })();
    await revokeBehindItsBack(key);
    await withinBound(ended);
    const next = frames.filter((frame) => frame.event === 'next');
    // console.js's refusalOf(): extensions.code unauthorized means "this server needs a (new) key"
    expect(JSON.parse(next.at(-1)!.data).errors[0].extensions.code).toBe('unauthorized');
    expect(frames.at(-1)!.event).toBe('complete');
  });

  it('closes a GraphQL WebSocket with 4403', async () => {
    const key = await mintKey(server);
    const client = createClient({
      url: `ws://${base}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: bearer(key),
      retryAttempts: 0,
    });
    const connected = new Promise<void>((resolve) => client.on('connected', () => resolve()));
    const ended = new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: 'subscription { recentScrapes { id } }' },
        { next: () => undefined, error: resolve, complete: () => resolve('completed') },
      );
    });
    try {
      await connected;
      await revokeBehindItsBack(key);
      expect(await withinBound(ended)).toMatchObject({ code: 4403 });
    } finally {
      await client.dispose();
    }
  });

  it('MCP opens no stream at all: GET /mcp, where a server stream would live, answers 405', async () => {
    const key = await mintKey(server);
    const response = await fetch(`http://${base}/mcp`, {
      headers: { accept: 'text/event-stream', ...bearer(key) },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('content-type')).not.toContain('text/event-stream');
  });
});
