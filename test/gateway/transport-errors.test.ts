// The same refusal carries the same code on every transport: an operation that does not validate
// answers bad_request over HTTP and over WebSocket alike, with no HTTP-only extensions on the socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { buildServer } from '../../app/server.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';

let t: CatalogTestServices;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  t = await createTestServices();
  app = await buildServer(t.services);
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

async function overHttp(query: string) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query }),
  });
  return ((await response.json()) as { errors: any[] }).errors;
}

async function overWebSocket(query: string): Promise<any[]> {
  const client = createClient({
    url: `${base.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  try {
    return await new Promise<any[]>((resolve, reject) => {
      client.subscribe(
        { query },
        {
          next: () => reject(new Error('expected an error')),
          error: (errors) => resolve(errors as any[]),
          complete: () => reject(new Error('completed without an error')),
        },
      );
    });
  } finally {
    await client.dispose();
  }
}

describe('error codes across transports', () => {
  for (const [what, query] of [
    ['an unknown field in a subscription', 'subscription { noSuchField }'],
    ['an unknown field in a query', '{ noSuchField }'],
  ] as const) {
    it(`${what}: bad_request over HTTP and WebSocket`, async () => {
      const [http] = await overHttp(query);
      const [socket] = await overWebSocket(query);
      expect(http.extensions.code).toBe('bad_request');
      expect(socket.extensions).toEqual(http.extensions);
      expect(socket.message).toBe(http.message);
    });
  }
});
