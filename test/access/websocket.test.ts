import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { revokeApiKey } from '../../src/access/api-keys.ts';
import { announceKeysChanged } from '../../src/access/authenticate.ts';
import { displayPrefix } from '../../src/access/key-format.ts';
import { mintKey, startAccessServer, type AccessServer } from './access-server.ts';

describe('GraphQL over WebSocket', () => {
  let db: TestDatabase;
  let server: AccessServer;
  let url: string;
  let key: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, {
      PLAN_LIMITS_JSON: JSON.stringify({ starter: { perMinute: 2 } }),
    });
    key = await mintKey(server);
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const address = server.app.server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/graphql`;
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const run = (connectionParams: Record<string, unknown>) => {
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams,
      retryAttempts: 0,
      lazy: true,
    });
    const once = () =>
      new Promise<{ data?: unknown; errors?: Array<{ extensions?: Record<string, unknown> }> }>(
        (resolve, reject) => {
          let result: { data?: unknown } = {};
          client.subscribe(
            { query: '{ apps { totalCount } }' },
            {
              next: (r) => (result = r as typeof result),
              error: reject,
              complete: () => resolve(result),
            },
          );
        },
      );
    return { client, once };
  };

  it('authorises connection_init with a key and charges each operation like an HTTP request', async () => {
    const { client, once } = run({ Authorization: `Bearer ${key}` });
    try {
      expect((await once()).data).toEqual({ apps: { totalCount: 0 } });
      expect((await once()).data).toEqual({ apps: { totalCount: 0 } });
      const third = await once();
      expect(third.errors?.[0]?.extensions).toMatchObject({
        code: 'rate_limited',
        details: { bucket: 'perMinute' },
      });
    } finally {
      await client.dispose();
    }
  });

  it('closes an open socket, ending its subscription, once its key is revoked', async () => {
    const doomed = await mintKey(server);
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${doomed}` },
      retryAttempts: 0,
    });
    let subscribed!: () => void;
    const opened = new Promise<void>((resolve) => (subscribed = resolve));
    client.on('connected', () => subscribed());
    const ended = new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: 'subscription { recentScrapes { id } }' },
        { next: () => undefined, error: resolve, complete: () => resolve('completed') },
      );
    });
    try {
      await opened;
      await revokeApiKey(server.services.db.prisma, displayPrefix(doomed));
      await announceKeysChanged(server.services.pubsub, server.services.logger);
      // the subscription ends with the socket, closed as forbidden (waits on the event, bounded by the test timeout)
      expect(await ended).toMatchObject({ code: 4403 });
      // and the revoked key opens no new socket
      const again = run({ Authorization: `Bearer ${doomed}` });
      await expect(again.once()).rejects.toMatchObject({ code: 4403 });
      await again.client.dispose();
    } finally {
      await client.dispose();
    }
  });

  it('closes a connection without a valid key', async () => {
    for (const params of [{}, { 'X-Api-Key': 'sk_live_00000000000000000000000000000000' }]) {
      const { client, once } = run(params);
      await expect(once()).rejects.toMatchObject({ code: 4403 });
      await client.dispose();
    }
  });
});
