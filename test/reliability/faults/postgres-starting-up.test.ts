// Fault: PostgreSQL restarting after a crash. Its open connections drop, and until recovery ends
// every new connection is refused with a FATAL error of its own (57P03 "the database system is
// starting up"; 53300 "too many clients"; 08006 and the like): Prisma reports those as
// `originalCode` of a "postgres" error, not as a connection error. A forwarder in front of the
// test database plays that server, speaking PostgreSQL's wire protocol; every request in the gap
// must be 503 with Retry-After and be logged as an outage (a warning, no stack), never as an error.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import { openServicesOn, type OpenedServices } from '../../support/open-services.ts';
import { buildServer } from '../../../app/server.ts';
import { mapDatabaseError } from '../../../src/platform/database/database-errors.ts';

/** A FATAL ErrorResponse message of PostgreSQL's protocol (what the server sends instead of AuthenticationOk). */
function fatal(sqlState: string, message: string): Buffer {
  const fields = Buffer.concat([
    ...[
      ['S', 'FATAL'],
      ['V', 'FATAL'],
      ['C', sqlState],
      ['M', message],
    ].map(([type, text]) => Buffer.from(`${type}${text}\0`, 'utf8')),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}

/** Forwards to PostgreSQL, or (refusing) cuts the open connections and answers each new startup message with `refusal`. */
async function startForwarder(target: URL) {
  let refusal: Buffer | undefined;
  const open = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    if (refusal) {
      const answer = refusal;
      socket.once('data', () => socket.end(answer));
      return;
    }
    const upstream = net.connect(Number(target.port), target.hostname);
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
    for (const s of [socket, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
    }
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: Object.assign(new URL(target), {
      port: String(port),
      host: `127.0.0.1:${port}`,
    }).toString(),
    refuseWith(answer: Buffer | undefined) {
      refusal = answer;
      if (answer) for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const REFUSALS: Array<[string, string]> = [
  ['57P03', 'the database system is starting up'],
  ['53300', 'sorry, too many clients already'],
  ['08006', 'connection failure'],
  ['57P01', 'terminating connection due to administrator command'],
];

describe('PostgreSQL refusing connections while it restarts', () => {
  let db: TestDatabase;
  let forwarder: Awaited<ReturnType<typeof startForwarder>>;
  let opened: OpenedServices;
  let app: FastifyInstance;
  beforeAll(async () => {
    db = await createTestDatabase();
    forwarder = await startForwarder(new URL(db.url));
    // no response cache: each request must reach the database
    opened = await openServicesOn(forwarder.url, { RESPONSE_CACHE_TTL_MS: '0' }, { poolSize: 2 });
    app = await buildServer(opened.services);
  });
  afterAll(async () => {
    forwarder?.refuseWith(undefined);
    await app?.close();
    await opened?.close();
    await forwarder?.close();
    await db?.drop();
  });

  const requests: Array<
    [
      string,
      () => Promise<{ statusCode: number; headers: Record<string, unknown>; json(): unknown }>,
    ]
  > = [
    ['store search (raw SQL)', () => app.inject({ method: 'GET', url: '/v1/stores?limit=5' })],
    ['store profile', () => app.inject({ method: 'GET', url: '/v1/stores/acme-apparel.com' })],
    [
      'scrape request (Prisma)',
      () => app.inject({ method: 'POST', url: '/v1/scrapes', payload: { domain: 'shop-a.test' } }),
    ],
    [
      'GraphQL',
      () =>
        app.inject({
          method: 'POST',
          url: '/graphql',
          payload: { query: '{ apps { totalCount } }' },
        }),
    ],
  ];

  for (const [sqlState, message] of REFUSALS) {
    it(`answers 503 with Retry-After, logged as a warning, while new connections get ${sqlState} (${message})`, async () => {
      forwarder.refuseWith(undefined);
      expect((await app.inject({ method: 'GET', url: '/v1/stores?limit=1' })).statusCode).toBe(200);
      forwarder.refuseWith(fatal(sqlState, message));
      const linesBefore = opened.logLines.length;
      for (const [name, send] of requests) {
        // twice: the first request meets the dropped connections, the next ones the refusal
        for (const attempt of [1, 2]) {
          const response = await send();
          expect(response.statusCode, `${name} #${attempt}`).toBe(503);
          expect(response.headers['retry-after'], `${name} #${attempt}`).toBe('5');
          expect(JSON.stringify(response.json()), name).toContain('database_unavailable');
        }
      }
      const errors = opened.logLines
        .slice(linesBefore)
        .map((line) => JSON.parse(line))
        .filter((line) => line.level >= 50);
      expect(errors.map((line) => line.msg)).toEqual([]);
    });
  }

  it('classifies the errors pg and Prisma raise for such a server as database_unavailable', async () => {
    forwarder.refuseWith(fatal('57P03', 'the database system is starting up'));
    const prismaError = await opened.services.db.prisma.apiKey
      .findFirst()
      .catch((error: unknown) => error);
    const pgError = await opened.services.db.pool
      .query('SELECT 1')
      .catch((error: unknown) => error);
    for (const error of [prismaError, pgError]) {
      expect(mapDatabaseError(error)?.details).toEqual({ reason: 'database_unavailable' });
    }
  });
});
