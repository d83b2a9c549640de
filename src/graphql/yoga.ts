// GraphQL on the Fastify server: graphql-yoga at /graphql (GraphiQL in a browser, SSE for
// streamed results) and graphql-ws on the same port and path. Cross-cutting behaviour lives in
// Yoga/envelop plugins around the one execution path: armor limits, persisted operations, error
// masking. Follows Yoga's Fastify integration (handleNodeRequestAndResponse).
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { format } from 'node:util';
import { createYoga, type Plugin } from 'graphql-yoga';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { accountIdOf, principalOf, scopesOf } from '../access/principal.ts';
import { GraphQLError } from 'graphql';
import { ApiError, isErrorCode } from '../platform/errors.ts';
import type { Services } from '../platform/services.ts';
import { armorPlugin } from './armor.ts';
import { createGraphqlContext } from './context.ts';
import { callerFacingErrorsPlugin, createErrorMasker } from './errors.ts';
import { loadPersistedOperations } from './persisted-operations.ts';
import { schema } from './schema.ts';
import { mountWebSocket } from './websocket.ts';

export const GRAPHQL_PATH = '/graphql';

const unsupportedContentType = () =>
  new ApiError('bad_request', 'Unsupported Content-Type: send the body as application/json.', {
    parameter: 'body',
    rule: 'Content-Type must be application/json',
  });

export interface MountGraphqlOptions {
  /** gate for WebSocket connections (HTTP requests pass the server's own hooks first) */
  authorizeWebSocket?: (request: IncomingMessage, connectionParams: Record<string, unknown> | undefined) => Promise<boolean> | boolean;
  /** cross-cutting plugins around the one execution path (the access layer's quota accounting) */
  plugins?: Plugin[];
}

interface ServerContext {
  req?: FastifyRequest | IncomingMessage;
  reply?: FastifyReply;
}

export function createGraphqlYoga(
  services: Services,
  persistedOperations: ReadonlyMap<string, string>,
  extraPlugins: Plugin[] = [],
) {
  const production = services.config.NODE_ENV === 'production';
  const log = services.logger.child({ component: 'graphql' });
  return createYoga<ServerContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    graphiql: { title: 'Store intelligence GraphQL' },
    landingPage: false,
    // CORS is the server's one policy (src/http/security-headers.ts); Yoga's own would reflect any Origin with credentials
    cors: false,
    logging: {
      debug: (...args) => log.debug(format(...args)),
      info: (...args) => log.info(format(...args)),
      warn: (...args) => log.warn(format(...args)),
      error: (...args) => {
        // Yoga logs every error a field raised; one with a contract code (bad_request, not_found, …) is
        // the caller's own mistake, an ordinary outcome: info, its code and message, no stack
        const refused = args.find((arg): arg is GraphQLError => arg instanceof GraphQLError && isErrorCode(arg.extensions?.code) && arg.extensions.code !== 'internal');
        if (refused) log.info({ refused: { code: refused.extensions.code, message: refused.message, path: refused.path } }, 'GraphQL field refused');
        else log.error(format(...args));
      },
    },
    maskedErrors: { maskError: createErrorMasker(log) },
    context: ({ req }) => {
      const requestId = req && 'id' in req ? String(req.id) : undefined;
      // the access layer bound the caller to the request (HTTP hook) or upgrade request (WebSocket gate)
      const principal = principalOf(req);
      return createGraphqlContext(services, { requestId, accountId: accountIdOf(principal), scopes: scopesOf(principal) });
    },
    plugins: [
      armorPlugin({ production }),
      usePersistedOperations({
        allowArbitraryOperations: true,
        getPersistedOperation: (hash) => persistedOperations.get(hash) ?? null,
      }),
      ...extraPlugins,
      callerFacingErrorsPlugin(),
    ],
  });
}

export type GraphqlYoga = ReturnType<typeof createGraphqlYoga>;

export async function mountGraphql(app: FastifyInstance, services: Services, options: MountGraphqlOptions = {}): Promise<void> {
  const persistedOperations = loadPersistedOperations();
  const yoga = createGraphqlYoga(services, persistedOperations, options.plugins);

  app.route({
    url: GRAPHQL_PATH,
    method: ['GET', 'POST', 'OPTIONS'],
    handler: async (req, reply) => {
      const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
      // Yoga answers a body it has no parser for (e.g. a POST without Content-Type) with a bare 415;
      // the contract's answer to a malformed request is bad_request
      if (response.status === 415) throw unsupportedContentType();
      response.headers.forEach((value, key) => {
        reply.header(key, value);
      });
      reply.status(response.status);
      reply.send(response.body);
      return reply;
    },
  });

  mountWebSocket(app, yoga, {
    path: GRAPHQL_PATH,
    persistedOperations,
    authorize: options.authorizeWebSocket,
  });
}
