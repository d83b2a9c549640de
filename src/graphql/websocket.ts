// GraphQL over WebSocket (graphql-ws protocol) on the HTTP server's own port, path /graphql,
// executing through the same Yoga envelope (schema, plugins, armor, error masking) as HTTP.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { GraphQLError, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { GraphqlYoga } from './yoga.ts';
import type { PersistedOperations } from './persisted-operations.ts';
import { persistedQueryHash, persistedQueryNotFound, registration } from './automatic-persisted-queries.ts';
import { socketFacing } from './errors.ts';

export interface WebSocketOptions {
  path: string;
  persistedOperations: PersistedOperations;
  /** decides whether a socket may run operations, from the upgrade request and connection_init payload */
  authorize?: (request: IncomingMessage, connectionParams: Record<string, unknown> | undefined) => Promise<boolean> | boolean;
}

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
  const wss = new WebSocketServer({ noServer: true });

  // Only upgrades for our path are ours; other upgrade listeners keep theirs.
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== options.path) return;
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  app.server.on('upgrade', onUpgrade);

  type Connection = { request: IncomingMessage; params: Record<string, unknown> | undefined; socket: { close(code: number, reason: string): void } };
  const open = new Set<Connection>();
  const stillAuthorized = async (connection: Connection) => {
    if (!options.authorize || (await options.authorize(connection.request, connection.params))) return true;
    open.delete(connection);
    connection.socket.close(REVOKED, 'Forbidden: the API key is no longer valid');
    return false;
  };
  const recheck = setInterval(() => {
    for (const connection of open) void stillAuthorized(connection).catch(() => undefined);
  }, SOCKET_RECHECK_MS);
  recheck.unref();
  const connections = new WeakMap<object, Connection>();

  const server = useServer(
    {
      onConnect: async (ctx) => {
        if (options.authorize && !(await options.authorize(ctx.extra.request, ctx.connectionParams))) return false;
        const connection: Connection = { request: ctx.extra.request, params: ctx.connectionParams, socket: ctx.extra.socket };
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
        if (connection && !(await stillAuthorized(connection))) return [new GraphQLError('The API key is no longer valid.', { extensions: { code: 'unauthorized' } })];
        const hash = persistedQueryHash(payload.extensions);
        let sent;
        try {
          sent = payload.query ? registration(payload.query, hash) : undefined;
        } catch (error) {
          return [socketFacing(error as GraphQLError)];
        }
        const query = payload.query || (hash ? options.persistedOperations.textOf(hash) ?? undefined : undefined);
        if (!query) return [persistedQueryNotFound()];
        const enveloped = yoga.getEnveloped({ ...ctx, req: ctx.extra.request, socket: ctx.extra.socket, params: payload });
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
  );

  app.addHook('onClose', async () => {
    clearInterval(recheck);
    app.server.off('upgrade', onUpgrade);
    await server.dispose();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
}
