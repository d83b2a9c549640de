// The composition root: the HTTP shell (Fastify with request ids, credential-free logging, a body
// limit, the contract's error envelope for every failure, GET /v1/health) with everything mounted on
// it, each surface in its own encapsulated scope: GraphQL at /graphql (src/gateway), the REST /v1
// routes and MCP (rest/), the scrape dashboard and the screenshot route (src/scrapes), all behind
// the request pipeline (src/gateway/pipeline.ts). The only place that sees src/ and rest/ together.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { ApiError } from '../src/platform/errors.ts';
import { checkHealth } from '../src/platform/health.ts';
import { isDatabaseUnavailable } from '../src/platform/database/database-errors.ts';
import type { Services } from '../src/platform/services.ts';
import { GRAPHQL_PATH, mountGraphql } from '../src/gateway/yoga.ts';
import { createPipeline } from '../src/gateway/pipeline.ts';
import { PersistedOperations, readManifest } from '../src/gateway/persisted-operations.ts';
import { schema } from '../src/gateway/schema.ts';
import { catalogRoutes, registerRest, routeRunner } from '../rest/index.ts';
import { MCP_PATH, mcpResourceMetadataUrl, registerMcp } from '../rest/mcp/index.ts';
import { registerScrapeDashboard } from '../src/scrapes/dashboard/dashboard-page.ts';
import { registerStoreScreenshot } from '../src/scrapes/screenshot/screenshot-route.ts';
import {
  bearerChallenge,
  clientAddressOf,
  clientKey,
  createAccess,
  type Access,
  trustedProxies,
  webSocketGate,
} from '../src/access/index.ts';
import { encodeUrlsInPath } from '../src/http/url-in-path.ts';
import { AccessLog, describeRequest } from '../src/http/access-log.ts';
import { lazyRequestLogger } from '../src/http/request-logger.ts';
import {
  sendError,
  sendGraphqlError,
  toApiError,
  writeClientError,
} from '../src/http/error-envelope.ts';
import { DEFAULT_RESPONSE_CACHE_TTL_MS, ResponseCache } from '../src/http/response-cache.ts';
import { invalidateOnCatalogWrites } from './catalog-invalidation.ts';
import { registerSecurityHeaders } from '../src/http/security-headers.ts';
import { registerCsvBodyParser, registerJsonBodyParser } from '../src/http/json-body.ts';
import { registerRawRequestAnswers } from '../src/http/raw-requests.ts';
import { looksLikeApiKey } from '../src/access/key-format.ts';

/** Routes mounted on the server in their own encapsulated Fastify scope. */
export type ServerPlugin = (app: FastifyInstance, services: Services) => Promise<void>;

export interface BuildServerOptions {
  /** mounted after the GraphQL and REST surfaces (tests mount probe routes this way) */
  plugins?: ServerPlugin[];
  /** false: /graphql answers every request through Yoga's own handler (tests compare it with the JSON lane) */
  graphqlJsonLane?: boolean;
  /** items per page of a list export (tests export a small catalog in several pages) */
  exportPageSize?: number;
}

/** Request bodies of this API are small JSON objects (scrape requests, watches, GraphQL documents). */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** A caller's or proxy's X-Request-Id is kept when it is a plain token, so logs correlate across hops. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function requestIdOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const given = request.headers['x-request-id'];
  // a key pasted into the wrong header would otherwise be echoed back and written into every log line
  return typeof given === 'string' && ACCEPTABLE_REQUEST_ID.test(given) && !looksLikeApiKey(given)
    ? given
    : randomUUID();
}

/**
 * Stops the server: no new connections, idle ones closed, requests in flight given `graceMs` to
 * finish; then every socket still open (a slow or stalled client, a long subscription) is closed,
 * so no client can hold a shutdown.
 */
export async function closeServer(app: FastifyInstance, graceMs: number): Promise<void> {
  const cutoff = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(cutoff);
  }
}

/** each server's access layer: the warm-up (app/warm-up.ts) sends its requests with an internal credential of it */
const accessLayers = new WeakMap<FastifyInstance, Access>();
export const accessOf = (app: FastifyInstance): Access | undefined => accessLayers.get(app);

export async function buildServer(
  services: Services,
  options: BuildServerOptions = {},
): Promise<FastifyInstance> {
  const logger: FastifyBaseLogger = services.logger.child(
    { component: 'http' },
    { serializers: { req: describeRequest } },
  );
  const app = Fastify({
    loggerInstance: logger,
    logController: new AccessLog(),
    childLoggerFactory: lazyRequestLogger,
    genReqId: requestIdOf,
    // a full URL as {domain}, written into the path unencoded, is read as the one segment it names
    rewriteUrl: (request) => encodeUrlsInPath(request.url ?? '/'),
    bodyLimit: BODY_LIMIT_BYTES,
    // request.ip, the address the per-address limits count: the TCP peer unless TRUST_PROXY names proxies to believe
    trustProxy: trustedProxies(services.config.TRUST_PROXY),
    // errors Fastify raises before routing (e.g. a malformed URL) bypass the error handler
    frameworkErrors: (error, _request, reply) =>
      sendError(reply, toApiError(error, BODY_LIMIT_BYTES)),
    // and failures before a request exists at all (an over-long URL, a malformed request line, too slow)
    clientErrorHandler: writeClientError,
    // a client trickling its headers or body holds a socket (and a stopping server) only this long;
    // Node checks these deadlines every connectionsCheckingInterval
    requestTimeout: services.config.REQUEST_TIMEOUT_MS,
    // a request that arrives while the server stops (on a connection already open) is served within
    // the shutdown grace, like those in flight: Fastify's own 503 would answer it with a body that is
    // not the contract's envelope
    return503OnClosing: false,
    http: {
      // a request without Host is answered by registerRawRequestAnswers, in the contract's envelope
      requireHostHeader: false,
      requestTimeout: services.config.REQUEST_TIMEOUT_MS,
      headersTimeout: services.config.REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(1_000, services.config.REQUEST_TIMEOUT_MS),
    },
  });

  // Request bodies are JSON; anything else is refused with bad_request rather than half-parsed.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);
  registerCsvBodyParser(app);
  registerRawRequestAnswers(app);

  // hooks that do nothing asynchronous take Fastify's callback form: no promise per request
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  // security headers and CORS; before the access check, which a key-less CORS preflight would fail
  registerSecurityHeaders(app);

  // the request pipeline (src/gateway/pipeline.ts): identify, then parse, admit, cache, execute and
  // shape each operation. Its hooks are on the root scope, before any surface answers; /graphql and
  // every REST route run their operations through its one envelope.
  const access = await createAccess(services);
  accessLayers.set(app, access);
  // request.ip's reading for the requests Fastify does not see (WebSocket upgrades)
  const clientAddress = clientAddressOf(services.config.TRUST_PROXY);
  const clientDocuments = services.config.PERSISTED_DOCUMENTS_FILE
    ? readManifest(services.config.PERSISTED_DOCUMENTS_FILE)
    : {};
  const persistedOperations = new PersistedOperations(schema, readManifest(), clientDocuments);
  const ttlMs = services.config.RESPONSE_CACHE_TTL_MS ?? DEFAULT_RESPONSE_CACHE_TTL_MS;
  const cache = ttlMs > 0 ? new ResponseCache({ ttlMs }) : undefined;
  const { yoga, runOperation } = createPipeline(app, services, persistedOperations, {
    access,
    cache,
  });

  app.setErrorHandler((error, request, reply) => {
    // a client that hangs up before its request arrived whole (Node's "aborted", code ECONNRESET) is
    // neither a failure of ours nor a database outage: it has gone and reads no answer
    if (request.raw.readableAborted) {
      request.log.info(
        { code: (error as NodeJS.ErrnoException).code },
        'client closed the connection during the request',
      );
      return sendError(
        reply,
        new ApiError(
          'bad_request',
          'The client closed the connection before its request arrived.',
          { parameter: 'body', rule: 'must arrive whole' },
        ),
      );
    }
    const apiError = toApiError(error, BODY_LIMIT_BYTES);
    // an outage (the database restarting) is not a fault of ours: one line, no stack
    if (isDatabaseUnavailable(apiError))
      request.log.warn({ reason: 'database_unavailable' }, 'data store unavailable');
    else if (apiError.code === 'internal')
      request.log.error({ err: error }, 'request failed unexpectedly');
    else if (apiError.code === 'query_timeout') request.log.warn({ err: error }, 'query timed out');
    if (apiError.status === 401) {
      const resourceMetadata =
        request.routeOptions.url === MCP_PATH
          ? mcpResourceMetadataUrl(services.config, request)
          : undefined;
      reply.header('www-authenticate', bearerChallenge(apiError, resourceMetadata));
    }
    if (request.routeOptions.url === GRAPHQL_PATH) return sendGraphqlError(reply, apiError);
    return sendError(reply, apiError);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    return sendError(
      reply,
      new ApiError(
        'not_found',
        `No route ${request.method} ${path}. See GET /v1/openapi.json for the routes.`,
        {
          method: request.method,
          path,
        },
      ),
    );
  });

  app.get('/v1/health', { config: { servesNoData: true } }, async (_request, reply) => {
    const report = await checkHealth(services, () => access.isOpenDevMode());
    // 503 tells a load balancer to stop sending traffic: only without the structured store is
    // the service unable to answer; a degraded legacy store or Redis still serves most routes.
    return reply
      .header('cache-control', 'no-store')
      .status(report.backends.structured.ok ? 200 : 503)
      .send(report);
  });

  if (cache)
    app.addHook(
      'onClose',
      invalidateOnCatalogWrites(
        cache,
        services.pubsub,
        services.logger,
        services.db.replicas?.replayBoundMs,
      ),
    );
  const runRoute = routeRunner(catalogRoutes, persistedOperations, runOperation, services.logger);
  const surfaces: ServerPlugin[] = [
    (scope) =>
      mountGraphql(scope, yoga, persistedOperations, {
        authorizeWebSocket: webSocketGate(access, clientAddress),
        jsonLane: options.graphqlJsonLane,
        webSocketMaxPayloadBytes: BODY_LIMIT_BYTES,
        // the per-address cap counts the client the HTTP limiter counts (an IPv6 one by its /64)
        webSocketClientOf: (request) => clientKey(clientAddress(request)),
      }),
    (scope) =>
      registerRest(scope, services, runRoute, {
        admission: access.admission,
        exportPageSize: options.exportPageSize,
      }),
    // MCP tools are the same routes, run the same way for the caller of each /mcp request
    (scope) => registerMcp(scope, services, runRoute, catalogRoutes),
    registerScrapeDashboard,
    registerStoreScreenshot,
  ];
  for (const plugin of [...surfaces, ...(options.plugins ?? [])]) {
    await app.register(async (scope) => plugin(scope, services));
  }
  return app;
}
