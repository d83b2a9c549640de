// GraphQL on the Fastify server: the Yoga server (its logging, error masking, GraphiQL) and /graphql
// mounted on it, over HTTP and graphql-ws on the same path. The stages every operation runs are the
// pipeline's (pipeline.ts); REST (runOperation) and the JSON lane (json-lane.ts) run on the same
// envelope, so every rule applies to every face once.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { format } from 'node:util';
import {
  createYoga,
  type YogaInitialContext,
  type YogaServerOptions as YogaOptions,
} from 'graphql-yoga';
import { redactApiKeys } from '../access/key-format.ts';
import { GraphQLError } from 'graphql';
import { ApiError, isErrorCode } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { GRAPHIQL_OPTIONS, renderOfflineGraphiQL, type NoncedGraphiQLOptions } from './graphiql.ts';
import { cspNonce } from '../http/content-security-policy.ts';
import { createErrorMasker } from './errors.ts';
import type { PersistedOperations } from './persisted-operations.ts';
import { schema } from './schema.ts';
import { jsonLane } from './json-lane.ts';
import { mountWebSocket, type WebSocketOptions } from './websocket.ts';
import type { GraphqlYoga, ServerContext } from './server-context.ts';

export const GRAPHQL_PATH = '/graphql';

const JSON_ANSWER = /^application\/(graphql-response\+)?json\b/;

const unsupportedContentType = () =>
  new ApiError('bad_request', 'Unsupported Content-Type: send the body as application/json.', {
    parameter: 'body',
    rule: 'Content-Type must be application/json',
  });

export interface MountGraphqlOptions {
  /** identify for WebSocket connections: the socket's caller, undefined to refuse it (HTTP requests pass the server's own hooks first) */
  authorizeWebSocket?: WebSocketOptions['authorize'];
  /** false: every request goes through Yoga's own handler (tests compare the two answers) */
  jsonLane?: boolean;
  /** the largest WebSocket message accepted (the HTTP body limit: a bigger one closes its socket with 1009) */
  webSocketMaxPayloadBytes: number;
  /** the client an upgrade request counts under for the per-address cap of unauthorised sockets */
  webSocketClientOf?: (request: IncomingMessage) => string;
}

/** Plugins of the Yoga envelope, as createYoga takes them. */
// biome-ignore lint/complexity/noBannedTypes: Yoga's own default for "no user context"
export type EnvelopePlugins = NonNullable<YogaOptions<ServerContext, {}>['plugins']>;

export interface YogaServerOptions {
  /** the envelope's plugins, in the pipeline's order (pipeline.ts) */
  plugins: EnvelopePlugins;
  /** the GraphQL context of one execution, from what its face handed over */
  context(initial: YogaInitialContext & ServerContext): object;
}

/** The Yoga server at /graphql with the pipeline's plugins and context; `log` is the GraphQL component's logger. */
export function createYogaServer(
  log: Logger,
  { plugins, context }: YogaServerOptions,
): GraphqlYoga {
  return createYoga<ServerContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    // each answer's page carries its own CSP nonce, drawn for the reply that sends it
    graphiql: (_request, context) => {
      const reply = (context as Partial<ServerContext> | undefined)?.reply;
      return reply
        ? ({ ...GRAPHIQL_OPTIONS, cspNonce: cspNonce(reply) } as NoncedGraphiQLOptions)
        : GRAPHIQL_OPTIONS;
    },
    renderGraphiQL: renderOfflineGraphiQL,
    landingPage: false,
    // the client preset's persisted documents may be sent as {documentId, variables}
    extraParamNames: ['documentId'],
    // CORS is the server's one policy (src/http/security-headers.ts); Yoga's own would reflect any Origin with credentials
    cors: false,
    logging: {
      debug: (...args) => log.debug(format(...args)),
      info: (...args) => log.info(format(...args)),
      warn: (...args) => log.warn(format(...args)),
      error: (...args) => {
        // Yoga logs every error a field raised; one with a contract code (bad_request, not_found, …) is
        // the caller's own mistake, an ordinary outcome: info, its code and message, no stack
        const refused = args.find(
          (arg): arg is GraphQLError =>
            arg instanceof GraphQLError &&
            isErrorCode(arg.extensions?.code) &&
            arg.extensions.code !== 'internal',
        );
        // an outage (the database restarting) is not a fault of ours: one warning, no stack
        const outage = args.find(
          (arg) =>
            arg instanceof GraphQLError &&
            (arg.extensions?.details as { reason?: unknown } | undefined)?.reason ===
              'database_unavailable',
        );
        if (outage) return log.warn({ reason: 'database_unavailable' }, 'data store unavailable');
        // its message may quote what the caller sent, a key pasted into the wrong place included
        if (refused)
          log.info(
            {
              refused: {
                code: refused.extensions.code,
                message: redactApiKeys(refused.message),
                path: refused.path,
              },
            },
            'GraphQL field refused',
          );
        else log.error(format(...args));
      },
    },
    maskedErrors: { maskError: createErrorMasker(log) },
    context,
    plugins,
  });
}

/** Mounts /graphql (HTTP and WebSocket) on the yoga whose envelope REST runs through too (the pipeline's runOperation). */
export async function mountGraphql(
  app: FastifyInstance,
  yoga: GraphqlYoga,
  persistedOperations: PersistedOperations,
  options: MountGraphqlOptions,
): Promise<void> {
  const runJsonLane = options.jsonLane === false ? undefined : jsonLane(yoga);
  app.route({
    url: GRAPHQL_PATH,
    method: ['GET', 'POST', 'OPTIONS'],
    // callers are identified, and one without credentials runs as anonymous: its fields decide
    config: { anonymousAllowed: true },
    handler: async (req, reply) => {
      // the common request (one JSON query or mutation, a JSON answer) runs on the envelope directly
      const answer = await runJsonLane?.(req, reply);
      if (answer) return reply.status(answer.status).headers(answer.headers).send(answer.body);
      // Yoga reads the raw request (URL, socket) and Fastify's parsed body; it is not handed Fastify's
      // parsed query: the URL carries it already, and with it Yoga would parse the URL again and set each
      // parameter back onto it, on every request
      const nodeRequest = {
        raw: req.raw,
        method: req.method,
        headers: req.headers,
        body: req.body,
      };
      const response = await yoga.handleNodeRequestAndResponse(nodeRequest, reply, {
        principal: req.principal,
        req,
        reply,
      });
      // Yoga answers a body it has no parser for (e.g. a POST without Content-Type) with a bare 415;
      // the contract's answer to a malformed request is bad_request
      if (response.status === 415) throw unsupportedContentType();
      response.headers.forEach((value, key) => {
        reply.header(key, value);
      });
      reply.status(response.status);
      // a JSON answer is one string already: sent whole rather than piped through a web stream;
      // streamed answers (SSE, multipart) keep their stream
      const type = response.headers.get('content-type') ?? '';
      reply.send(JSON_ANSWER.test(type) ? await response.text() : response.body);
      return reply;
    },
  });

  mountWebSocket(app, yoga, {
    path: GRAPHQL_PATH,
    persistedOperations,
    authorize: options.authorizeWebSocket,
    maxPayloadBytes: options.webSocketMaxPayloadBytes,
    clientOf: options.webSocketClientOf,
  });
}
