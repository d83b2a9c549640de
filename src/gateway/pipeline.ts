// The request pipeline. Every data request runs these stages, in this order, whatever its face:
// a REST /v1 route, /graphql over HTTP or WebSocket, or an MCP tool call (a REST route run for it).
//
//   1. identify  who is calling: the onRequest hook (src/access/http-hook.ts) sets the principal on
//                the request, the WebSocket gate on the socket; each face hands it on in its server
//                context, and the GraphQL context carries it (`principal`, below) to the stages after.
//   2. parse     the request's parameters: a REST route's schemas (rest/parse-params.ts, before its
//                handler), GraphQL's document: parsed, validated (armor's limits), persisted
//                operations, the query cost, and compiled for execution.
//   3. admit     plan, scope, result window and charge, in one module (src/access/admission.ts); a
//                refused request executes nothing. A route that runs no operation is admitted by
//                the HTTP hook through the same module.
//   4. cache     a public answer reused for the same variables (src/http/response-cache.ts).
//   5. execute   the operation, compiled (graphql-jit) or not.
//   6. shape     the answer a caller sees: errors masked and given contract codes (errors.ts); a
//                REST route's /v1 body and status (rest/run-route.ts).
//
// Stages 2 to 6 of an operation are the plugins of one Yoga envelope, listed below in that order;
// /graphql (yoga.ts, json-lane.ts, websocket.ts) and REST (runOperation) run on it alike.
import type { FastifyInstance } from 'fastify';
import type { ExecutionResult, GraphQLSchema, DocumentNode } from 'graphql';
import { documentStringMap } from '@envelop/core';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { Access } from '../access/access.ts';
import type { CallerContext } from '../access/admission.ts';
import { accessGraphqlPlugin } from '../access/graphql-plugin.ts';
import { registerAccess } from '../access/http-hook.ts';
import { accountIdOf, ANONYMOUS, scopesOf } from '../access/principal.ts';
import { createGraphqlContext, type GraphqlContext } from '../graphql/context.ts';
import { queryCostPlugin } from '../graphql/query-cost.ts';
import { responseCachePlugin, type ResponseCache } from '../http/response-cache.ts';
import type { Services } from '../platform/services.ts';
import { parseDomain } from '../stores/domain.ts';
import { armorPlugin } from './armor.ts';
import {
  automaticPersistedQueriesPlugin,
  persistedQueryHash,
  PERSISTED_QUERY_NOT_FOUND,
} from './automatic-persisted-queries.ts';
import { callerFacingErrorsPlugin } from './errors.ts';
import type { PersistedOperation, PersistedOperations } from './persisted-operations.ts';
import { schema } from './schema.ts';
import type { GraphqlYoga, ServerContext } from './server-context.ts';
import { createYogaServer, type EnvelopePlugins } from './yoga.ts';

/** The stages of an operation after identify, as the envelope runs them. */
export interface OperationStages {
  /** admit: the access layer (absent: nothing is admitted or charged, a bare envelope in tests) */
  access?: Access;
  /** cache: the shared answers of public persisted operations (absent: none are shared) */
  cache?: ResponseCache;
}

/** The Yoga envelope of the pipeline: stages 2 to 6 of every operation, whatever face runs it. */
export function createGraphqlYoga(
  services: Services,
  persistedOperations: PersistedOperations,
  { access, cache }: OperationStages = {},
): GraphqlYoga {
  const log = services.logger.child({ component: 'graphql' });
  const seenBefore = executionCounter();
  const admission = access?.admission;
  const plugins: EnvelopePlugins = [
    // 2. parse: limits, persisted and automatic persisted operations, the query cost; then the
    //    compiled executor (picked here, run at stage 5: the cache below wraps it)
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
    // 3. admit
    ...(access ? [accessGraphqlPlugin(access)] : []),
    // 4. cache
    ...(cache
      ? [
          responseCachePlugin({
            cache,
            isPersisted: (d) => persistedOperations.isPersisted(d),
            domainOf: storeDomainOf,
          }),
        ]
      : []),
    // 5. execute: the executor stage 2 picked, inside the cache's wrapper
    // 6. shape: errors the caller sees (masking is the Yoga server's, yoga.ts)
    callerFacingErrorsPlugin(),
  ];
  return createYogaServer(log, {
    plugins,
    // the context carries the caller explicitly, and the admission that charges it
    context: ({ req, principal }) => {
      const requestId = req && 'id' in req ? String(req.id) : undefined;
      const caller = principal ?? ANONYMOUS;
      const context = createGraphqlContext(services, {
        requestId,
        accountId: accountIdOf(caller),
        scopes: scopesOf(caller),
      }) as GraphqlContext & CallerContext;
      context.principal = caller;
      context.admission = admission;
      return context;
    },
  });
}

/** The canonical domain an operation's `domain` variable names (a scrape event names it so); undefined = about no single store. */
function storeDomainOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const parsed = parseDomain(value);
  return parsed.ok ? parsed.domain : undefined;
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

/** Runs a persisted operation through the envelope: the same context, stages and error masking as /graphql. */
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

/** The pipeline of one server: /graphql mounts its Yoga, REST and MCP run routes through runOperation. */
export interface RequestPipeline {
  yoga: GraphqlYoga;
  runOperation: RunOperation;
}

/**
 * Sets the pipeline up on the server's root: identify (and the admission of routes that run no
 * operation) as hooks every surface's routes pass, and the envelope of every operation.
 */
export function createPipeline(
  app: FastifyInstance,
  services: Services,
  persistedOperations: PersistedOperations,
  stages: Required<Pick<OperationStages, 'access'>> & OperationStages,
): RequestPipeline {
  registerAccess(app, stages.access);
  const yoga = createGraphqlYoga(services, persistedOperations, stages);
  return { yoga, runOperation: operationRunner(yoga) };
}
