// GraphQL over WebSocket (graphql-ws protocol) on the HTTP server's own port, path /graphql,
// executing through the same Yoga envelope (schema, plugins, armor, error masking) as HTTP.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { GraphQLError, type ExecutionArgs } from 'graphql';
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Principal } from '../access/principal.ts';
import { ApiError } from '../platform/errors.ts';
import { writeErrorOnSocket } from '../http/error-envelope.ts';
import type { GraphqlYoga } from './server-context.ts';
import type { PersistedOperations } from './persisted-operations.ts';
import {
  persistedQueryHash,
  persistedQueryNotFound,
  registration,
} from './automatic-persisted-queries.ts';
import { socketFacing } from './errors.ts';

export interface WebSocketOptions {
  path: string;
  persistedOperations: PersistedOperations;
  /** identifies a socket's caller from the upgrade request and connection_init payload; undefined refuses it */
  authorize?: (
    request: IncomingMessage,
    connectionParams: Record<string, unknown> | undefined,
  ) => Promise<Principal | undefined> | Principal | undefined;
  /** the largest message a socket may send (larger: closed with 1009 before it is buffered); the HTTP body limit */
  maxPayloadBytes: number;
  /** sockets one address may hold open before their connection_init carried a valid key */
  maxUnauthenticatedPerAddress?: number;
  /** the client an upgrade request counts under for that cap (the HTTP limiter's client key); default the TCP peer */
  clientOf?: (request: IncomingMessage) => string;
}

/**
 * Sockets one address may hold before any of them is authorised: each costs memory until graphql-ws
 * closes it for lack of a connection_init, and a key is what lets an address hold more.
 */
export const MAX_UNAUTHENTICATED_SOCKETS_PER_ADDRESS = 8;

/**
 * How long a socket may wait for its connection_init (then closed with 4408). Long enough that a
 * slow client's over-large first message is still answered with 1009 rather than a timeout.
 */
export const CONNECTION_INIT_WAIT_MS = 10_000;

type Envelope = ReturnType<GraphqlYoga['getEnveloped']>;

/**
 * How often every open socket's key is checked again. A key is authorised at connection_init, but
 * a socket may stay open for days: each operation re-checks it, and this tick closes the sockets
 * (and so ends the running subscriptions) of a key revoked meanwhile. The check goes through the
 * key cache, which forgets a key at once when its revocation is announced.
 */
export const SOCKET_RECHECK_MS = 1_000;
/** close code for a socket whose key is no longer valid (graphql-ws uses 4403 for a refused connection_init too) */
const REVOKED = 4403;

export function mountWebSocket(
  app: FastifyInstance,
  yoga: GraphqlYoga,
  options: WebSocketOptions,
): void {
  // ws buffers a whole message before handing it over: its own default ceiling is 100 MiB
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes });
  const perAddressCap =
    options.maxUnauthenticatedPerAddress ?? MAX_UNAUTHENTICATED_SOCKETS_PER_ADDRESS;
  const clientOf =
    options.clientOf ?? ((request: IncomingMessage) => request.socket.remoteAddress ?? 'unknown');

  // sockets not yet authorised, per client address; a socket leaves the count when authorised or closed
  const unauthenticated = new Map<string, number>();
  const pending = new Map<WebSocket, string>();
  const authorised = (ws: WebSocket) => {
    const address = pending.get(ws);
    if (address === undefined) return;
    pending.delete(ws);
    const left = (unauthenticated.get(address) ?? 1) - 1;
    if (left > 0) unauthenticated.set(address, left);
    else unauthenticated.delete(address);
  };

  // Only upgrades for our path are ours; other upgrade listeners keep theirs.
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== options.path) return;
    const address = clientOf(request);
    if ((unauthenticated.get(address) ?? 0) >= perAddressCap) {
      const refusal = new ApiError(
        'rate_limited',
        `Too many WebSocket connections from this address are waiting for their connection_init (at most ${perAddressCap}): send a valid key in connection_init, or close the others.`,
        { limit: perAddressCap, bucket: 'unauthenticatedSockets' },
        1,
      );
      return writeErrorOnSocket(socket, refusal);
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      unauthenticated.set(address, (unauthenticated.get(address) ?? 0) + 1);
      pending.set(ws, address);
      ws.once('close', () => authorised(ws));
      wss.emit('connection', ws, request);
    });
  };
  app.server.on('upgrade', onUpgrade);

  type Connection = {
    request: IncomingMessage;
    params: Record<string, unknown> | undefined;
    socket: { close(code: number, reason: string): void };
    /** the socket's caller, as its last check found it: each operation runs as it */
    principal?: Principal;
  };
  const open = new Set<Connection>();
  const stillAuthorized = async (connection: Connection) => {
    if (!options.authorize) return true;
    const principal = await options.authorize(connection.request, connection.params);
    if (principal) {
      connection.principal = principal;
      return true;
    }
    open.delete(connection);
    connection.socket.close(REVOKED, 'Forbidden: the API key is no longer valid');
    return false;
  };
  const recheck = setInterval(() => {
    for (const connection of open) void stillAuthorized(connection).catch(() => undefined);
  }, SOCKET_RECHECK_MS);
  recheck.unref();
  const connections = new WeakMap<object, Connection>();

  const server = serveGraphqlWs(
    app,
    {
      connectionInitWaitTimeout: CONNECTION_INIT_WAIT_MS,
      onConnect: async (ctx) => {
        const principal = options.authorize
          ? await options.authorize(ctx.extra.request, ctx.connectionParams)
          : undefined;
        if (options.authorize && !principal) return false;
        authorised(ctx.extra.socket);
        const connection: Connection = {
          request: ctx.extra.request,
          params: ctx.connectionParams,
          socket: ctx.extra.socket,
          principal,
        };
        connections.set(ctx, connection);
        open.add(connection);
        return true;
      },
      onClose: (ctx) => {
        const connection = connections.get(ctx);
        if (connection) open.delete(connection);
      },
      execute: (args) => (args.rootValue as Envelope).execute(args),
      subscribe: (args) => (args.rootValue as Envelope).subscribe(args),
      onSubscribe: async (ctx, _id, payload) => {
        const connection = connections.get(ctx);
        if (connection && !(await stillAuthorized(connection)))
          return [
            new GraphQLError('The API key is no longer valid.', {
              extensions: { code: 'unauthorized' },
            }),
          ];
        const hash = persistedQueryHash(payload.extensions);
        let sent;
        try {
          sent = payload.query ? registration(payload.query, hash) : undefined;
        } catch (error) {
          return [socketFacing(error as GraphQLError)];
        }
        const query =
          payload.query ||
          (hash ? (options.persistedOperations.textOf(hash) ?? undefined) : undefined);
        if (!query) return [persistedQueryNotFound()];
        const enveloped = yoga.getEnveloped({
          ...ctx,
          principal: connection?.principal,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params: payload,
        });
        let document;
        try {
          document = enveloped.parse(query);
        } catch (error) {
          return [socketFacing(error as GraphQLError)];
        }
        const args: ExecutionArgs = {
          schema: enveloped.schema,
          operationName: payload.operationName,
          document,
          variableValues: payload.variables,
          contextValue: await enveloped.contextFactory(),
          rootValue: enveloped,
        };
        let errors: readonly GraphQLError[];
        try {
          errors = enveloped.validate(args.schema, args.document);
        } catch (error) {
          // armor's limits throw from validation rather than report
          errors = [error as GraphQLError];
        }
        // the same codes as over HTTP (bad_request for a document that does not validate)
        if (errors.length) return errors.map(socketFacing);
        if (sent) options.persistedOperations.registered.set(sent.hash, sent.query);
        return args;
      },
    },
    wss,
    options.maxPayloadBytes,
  );

  app.addHook('onClose', async () => {
    clearInterval(recheck);
    app.server.off('upgrade', onUpgrade);
    await server.dispose();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
}

/** what graphql-ws's handlers find in ctx.extra */
type Extra = { socket: WebSocket; request: IncomingMessage };

/** how often an idle socket is pinged; one that does not answer within as long again is dropped */
const KEEP_ALIVE_MS = 12_000;

/**
 * graphql-ws's server on ws sockets: graphql-ws/use/ws's adapter, but whatever goes wrong on a
 * socket goes to the structured log instead of console.error. A client's broken frame (over the
 * size limit, bad UTF-8, a protocol violation) is its own fault, and ws has already closed the
 * socket with the code that says which: one warning, no stack.
 */
function serveGraphqlWs(
  app: FastifyInstance,
  serverOptions: ServerOptions<Record<string, unknown> | undefined, Extra>,
  wss: WebSocketServer,
  maxPayloadBytes: number,
): { dispose(): Promise<void> } {
  // the server's http logger (its component field) with the transport beside it
  const log = app.log.child({ transport: 'graphql-ws' });
  const server = makeServer(serverOptions);
  wss.options.handleProtocols = handleProtocols;
  wss.on('error', (error) => log.error({ err: error }, 'WebSocket server failed'));
  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH')
        log.warn(
          { reason: 'message_too_big', closeCode: 1009, limitBytes: maxPayloadBytes },
          'WebSocket message over the size limit: socket closed',
        );
      else
        log.warn(
          { reason: 'protocol_error', code: error.code, message: error.message },
          'WebSocket frame refused: socket closed',
        );
      // a receiver error has closed the socket with its own code already; anything else ends it here
      if (socket.readyState === socket.OPEN)
        socket.close(CloseCode.InternalServerError, 'Internal server error');
    });
    let pongWait: NodeJS.Timeout | undefined;
    const ping = setInterval(() => {
      if (socket.readyState !== socket.OPEN) return;
      pongWait = setTimeout(() => socket.terminate(), KEEP_ALIVE_MS);
      socket.once('pong', () => {
        clearTimeout(pongWait);
        pongWait = undefined;
      });
      socket.ping();
    }, KEEP_ALIVE_MS);
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (error) => (error ? reject(error) : resolve()));
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) =>
          socket.on('message', async (data) => {
            try {
              await handle(String(data));
            } catch (error) {
              log.error({ err: error }, 'GraphQL over WebSocket: a message failed');
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            }
          }),
      },
      { socket, request },
    );
    socket.once('close', (code, reason) => {
      clearTimeout(pongWait);
      clearInterval(ping);
      closed(code, String(reason)).catch((error: unknown) =>
        log.error({ err: error }, 'GraphQL over WebSocket: closing a socket failed'),
      );
    });
  });
  return {
    async dispose() {
      for (const client of wss.clients) client.close(1001, 'Going away');
      wss.removeAllListeners();
    },
  };
}
