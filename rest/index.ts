// registerRest(app, services): the /v1 catalog routes and the discovery routes on a Fastify scope.
// Every catalog route runs its persisted operation in-process against the one GraphQL schema; REST
// adds parameter parsing and the /v1 envelope, no business logic.
import type { FastifyInstance } from 'fastify';
import { accountIdOf, principalOf, scopesOf } from '../src/access/principal.ts';
import { createGraphqlContext } from '../src/graphql/context.ts';
import { schema } from '../src/graphql/schema.ts';
import { parseDomain } from '../src/stores/domain.ts';
import type { Services } from '../src/platform/services.ts';
import { registerDiscoveryRoutes } from './discovery-routes.ts';
import { parseBody, parseParams } from './parse-params.ts';
import { PersistedOperations, readManifest } from './persisted-operations.ts';
import { CACHED_CATALOG_OPERATIONS, DEFAULT_RESPONSE_CACHE_TTL_MS, invalidateOnScrapes, ResponseCache } from '../src/http/response-cache.ts';
import { fastifyPath, type RestRoute } from './route.ts';
import { catalogRoutes } from './routes/index.ts';

export async function registerRest(app: FastifyInstance, services: Services): Promise<void> {
  const operations = PersistedOperations.load(schema, readManifest(), services.logger);
  // a route whose operation is not persisted fails the start, not its first request
  for (const route of catalogRoutes) operations.get(route.document);

  const ttlMs = services.config.RESPONSE_CACHE_TTL_MS ?? DEFAULT_RESPONSE_CACHE_TTL_MS;
  const cache = ttlMs > 0 ? new ResponseCache({ ttlMs }) : undefined;
  if (cache) {
    const unsubscribe = invalidateOnScrapes(cache, services.pubsub, services.logger);
    app.addHook('onClose', unsubscribe);
  }

  for (const route of catalogRoutes) {
    const cached = cache && route.method === 'GET' && CACHED_CATALOG_OPERATIONS.has(route.operationId) ? cache : undefined;
    registerCatalogRoute(app, services, operations, route, cached);
  }
  registerDiscoveryRoutes(app, services);
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** each request's parameters, parsed once in preValidation */
const parsedParams = new WeakMap<object, Record<string, unknown>>();

/** The canonical domain a route's path names (a scrape event names it so); undefined = about no single store. */
function storeDomainOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const parsed = parseDomain(value);
  return parsed.ok ? parsed.domain : undefined;
}

function registerCatalogRoute(
  app: FastifyInstance,
  services: Services,
  operations: PersistedOperations,
  route: RestRoute,
  cache: ResponseCache | undefined,
): void {
  app.route({
    method: route.method,
    url: fastifyPath(route.path),
    config: {
      quotaBucket: route.quotaBucket ?? undefined,
      // parsing here too means a malformed body is a bad_request before anything is charged
      quotaUnits: route.quotaUnits && ((body: unknown) => route.quotaUnits!(parseBody(route, body))),
    },
    // the caller's parameters are checked before the request is charged (preHandler): a request refused
    // as malformed counts against nothing
    preValidation: async (request) => {
      parsedParams.set(request, { ...parseParams(route, request.params, request.query), ...parseBody(route, request.body) });
    },
    handler: async (request, reply) => {
      const params = parsedParams.get(request)!;
      const run = async () => {
        const principal = principalOf(request);
        const context = createGraphqlContext(services, { requestId: request.id, accountId: accountIdOf(principal), scopes: scopesOf(principal) });
        const data = await operations.execute(route.document, route.variables(params), context);
        const body = route.respond(data, params);
        return { status: route.status?.(body) ?? 200, body };
      };
      if (!cache) {
        const { status, body } = await run();
        return reply.status(status).send(body);
      }
      // the answer of a cached route depends on its parameters alone (never on the caller)
      const domain = 'domain' in route.pathParams.shape ? storeDomainOf(params.domain) : undefined;
      const answer = await cache.getOrLoad(ResponseCache.keyOf(route.operationId, params), domain, async () => {
        const { status, body } = await run();
        return { status, body: JSON.stringify(body) };
      });
      return reply.status(answer.status).type(JSON_TYPE).send(answer.body);
    },
  });
}
