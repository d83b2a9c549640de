// GraphQL on the Fastify server: graphql-yoga at /graphql and graphql-ws on the same path, with the
// cross-cutting rules as plugins around one execution path (armor, persisted operations, compiled
// queries, charging, the response cache, error masking). REST (operationRunner) and the JSON lane
// (json-lane.ts) run on the same envelope, so every rule applies to every face once.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { format } from 'node:util';
import { createYoga, type Plugin } from 'graphql-yoga';
import { documentStringMap } from '@envelop/core';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { accountIdOf, principalOf, scopesOf } from '../access/principal.ts';
import { redactApiKeys } from '../access/key-format.ts';
import { GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { ApiError, isErrorCode } from '../platform/errors.ts';
import type { Services } from '../platform/services.ts';
import { armorPlugin } from './armor.ts';
import {
  automaticPersistedQueriesPlugin,
  persistedQueryHash,
  PERSISTED_QUERY_NOT_FOUND,
} from './automatic-persisted-queries.ts';
import { queryCostPlugin } from '../graphql/query-cost.ts';
import { GRAPHIQL_OPTIONS, renderOfflineGraphiQL, type NoncedGraphiQLOptions } from './graphiql.ts';
import { cspNonce } from '../http/content-security-policy.ts';
import { createGraphqlContext } from '../graphql/context.ts';
import { callerFacingErrorsPlugin, createErrorMasker } from './errors.ts';
import type { PersistedOperation, PersistedOperations } from './persisted-operations.ts';
import { schema } from './schema.ts';
import { jsonLane } from './json-lane.ts';
import { mountWebSocket } from './websocket.ts';
import type { GraphqlYoga, ServerContext } from './server-context.ts';

export const GRAPHQL_PATH = '/graphql';

const JSON_ANSWER = /^application\/(graphql-response\+)?json\b/;

const unsupportedContentType = () =>
  new ApiError('bad_request', 'Unsupported Content-Type: send the body as application/json.', {
    parameter: 'body',
    rule: 'Content-Type must be application/json',
  });

export interface MountGraphqlOptions {
  /** gate for WebSocket connections (HTTP requests pass the server's own hooks first) */
  authorizeWebSocket?: (
    request: IncomingMessage,
    connectionParams: Record<string, unknown> | undefined,
  ) => Promise<boolean> | boolean;
  /** false: every request goes through Yoga's own handler (tests compare the two answers) */
  jsonLane?: boolean;
  /** the largest WebSocket message accepted (the HTTP body limit: a bigger one closes its socket with 1009) */
  webSocketMaxPayloadBytes: number;
  /** the client an upgrade request counts under for the per-address cap of unauthorised sockets */
  webSocketClientOf?: (request: IncomingMessage) => string;
}

/** True from a document's second execution on (documents are Yoga's cached parses, held weakly). */
function executionCounter() {
  const seen = new WeakSet<DocumentNode>();
  return (document: DocumentNode): boolean => {
    if (seen.has(document)) return true;
    seen.add(document);
    return false;
  };
}

export function createGraphqlYoga(
  services: Services,
  persistedOperations: PersistedOperations,
  /** cross-cutting plugins around the one execution path, in order (the access layer's charging, then the response cache) */
  extraPlugins: Plugin[] = [],
): GraphqlYoga {
  const log = services.logger.child({ component: 'graphql' });
  const seenBefore = executionCounter();
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
    context: ({ req }) => {
      const requestId = req && 'id' in req ? String(req.id) : undefined;
      // the access layer bound the caller to the request (HTTP hook) or upgrade request (WebSocket gate)
      const principal = principalOf(req);
      return createGraphqlContext(services, {
        requestId,
        accountId: accountIdOf(principal),
        scopes: scopesOf(principal),
      });
    },
    plugins: [
      armorPlugin(),
      usePersistedOperations({
        allowArbitraryOperations: true,
        // Apollo's and urql's extension, or the client preset's documentId
        extractPersistedOperationId: (params) =>
          persistedQueryHash(params.extensions) ??
          (typeof (params as { documentId?: unknown }).documentId === 'string'
            ? (params as { documentId: string }).documentId
            : null),
        getPersistedOperation: (hash) => persistedOperations.textOf(hash),
        customErrors: {
          notFound: {
            message: 'PersistedQueryNotFound',
            extensions: { code: PERSISTED_QUERY_NOT_FOUND },
          },
        },
      }),
      automaticPersistedQueriesPlugin(persistedOperations.registered),
      queryCostPlugin(),
      // compiled: the persisted operations (at start, so no request pays for it) and any other
      // document from its second execution on (Yoga's parse cache hands back the same document)
      useGraphQlJit(
        {},
        {
          enableIf: (args) =>
            persistedOperations.isPersisted(args.document) || seenBefore(args.document),
          cache: precompiled(schema, persistedOperations),
          onError: (failure) =>
            log.warn(
              { errors: failure.errors?.map((e) => e.message) },
              'persisted operation runs uncompiled',
            ),
        },
      ),
      ...extraPlugins,
      callerFacingErrorsPlugin(),
    ],
  });
}

/**
 * graphql-jit's compiled queries of the persisted operations, by document text (the cache
 * useGraphQlJit consults before compiling; it reads a document's text from envelop's map, filled
 * here for ours). Other documents stay in the plugin's own per-document cache.
 */
function precompiled(schema: GraphQLSchema, persistedOperations: PersistedOperations) {
  const compiled = new Map<string, CompiledQuery>();
  for (const operation of persistedOperations.all()) {
    const result = compileQuery(schema, operation.document);
    if (!isCompiledQuery(result)) continue;
    documentStringMap.set(operation.document, operation.text);
    compiled.set(operation.text, result);
  }
  return { get: (text: string) => compiled.get(text), set: () => undefined };
}

/** Runs a persisted operation through Yoga's envelope: the same context, plugins and error masking as /graphql. */
export type RunOperation = (
  operation: PersistedOperation,
  variables: Record<string, unknown>,
  serverContext: ServerContext,
) => Promise<ExecutionResult>;

export function operationRunner(yoga: GraphqlYoga): RunOperation {
  return async (operation, variables, serverContext) => {
    const { contextFactory, execute, schema: envelopedSchema } = yoga.getEnveloped(serverContext);
    const contextValue = await contextFactory(serverContext);
    const result = await execute({
      schema: envelopedSchema,
      document: operation.document,
      operationName: operation.name,
      variableValues: variables,
      contextValue,
    });
    if (Symbol.asyncIterator in result)
      throw new Error(`${operation.name} is a subscription: REST runs queries and mutations only`);
    return result;
  };
}

/** Mounts /graphql (HTTP and WebSocket) on the yoga whose envelope REST runs through too (operationRunner). */
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
      const response = await yoga.handleNodeRequestAndResponse(nodeRequest, reply, { req, reply });
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
