// GraphQL over WebSocket (graphql-ws protocol) on the HTTP server's own port, path /graphql,
// executing through the same Yoga envelope (schema, plugins, armor, error masking) as HTTP.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { GraphQLError, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { GraphqlYoga } from './yoga.ts';

export interface WebSocketOptions {
  path: string;
  persistedOperations: ReadonlyMap<string, string>;
  /** decides whether a socket may run operations, from the upgrade request and connection_init payload */
  authorize?: (request: IncomingMessage, connectionParams: Record<string, unknown> | undefined) => Promise<boolean> | boolean;
}

type Envelope = ReturnType<GraphqlYoga['getEnveloped']>;

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

  const server = useServer(
    {
      onConnect: async (ctx) =>
        options.authorize ? options.authorize(ctx.extra.request, ctx.connectionParams) : true,
      execute: (args) => (args.rootValue as Envelope).execute(args),
      subscribe: (args) => (args.rootValue as Envelope).subscribe(args),
      onSubscribe: async (ctx, _id, payload) => {
        const hash = (payload.extensions?.persistedQuery as { sha256Hash?: unknown } | undefined)?.sha256Hash;
        const query = payload.query || (typeof hash === 'string' ? options.persistedOperations.get(hash) : undefined);
        if (!query) return [new GraphQLError('PersistedQueryNotFound')];
        const enveloped = yoga.getEnveloped({ ...ctx, req: ctx.extra.request, socket: ctx.extra.socket, params: payload });
        const args: ExecutionArgs = {
          schema: enveloped.schema,
          operationName: payload.operationName,
          document: enveloped.parse(query),
          variableValues: payload.variables,
          contextValue: await enveloped.contextFactory(),
          rootValue: enveloped,
        };
        const errors = enveloped.validate(args.schema, args.document);
        return errors.length ? errors : args;
      },
    },
    wss,
  );

  app.addHook('onClose', async () => {
    app.server.off('upgrade', onUpgrade);
    await server.dispose();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
}
