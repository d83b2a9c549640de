// registerRest(app, services): the /v1 catalog routes and the discovery routes on a Fastify scope.
// Every catalog route runs its persisted operation in-process against the one GraphQL schema; REST
// adds parameter parsing and the /v1 envelope, no business logic.
import type { FastifyInstance } from 'fastify';
import { accountIdOf, principalOf, scopesOf } from '../src/access/principal.ts';
import { createGraphqlContext } from '../src/graphql/context.ts';
import { schema } from '../src/graphql/schema.ts';
import type { Services } from '../src/platform/services.ts';
import { registerDiscoveryRoutes } from './discovery-routes.ts';
import { parseBody, parseParams } from './parse-params.ts';
import { PersistedOperations, readManifest } from './persisted-operations.ts';
import { fastifyPath, type RestRoute } from './route.ts';
import { catalogRoutes } from './routes/index.ts';

export async function registerRest(app: FastifyInstance, services: Services): Promise<void> {
  const operations = PersistedOperations.load(schema, readManifest(), services.logger);
  // a route whose operation is not persisted fails the start, not its first request
  for (const route of catalogRoutes) operations.get(route.document);

  for (const route of catalogRoutes) registerCatalogRoute(app, services, operations, route);
  registerDiscoveryRoutes(app, services);
}

function registerCatalogRoute(
  app: FastifyInstance,
  services: Services,
  operations: PersistedOperations,
  route: RestRoute,
): void {
  app.route({
    method: route.method,
    url: fastifyPath(route.path),
    config: {
      quotaBucket: route.quotaBucket ?? undefined,
      // parsing here too means a malformed body is a bad_request before anything is charged
      quotaUnits: route.quotaUnits && ((body: unknown) => route.quotaUnits!(parseBody(route, body))),
    },
    handler: async (request, reply) => {
      const params = { ...parseParams(route, request.params, request.query), ...parseBody(route, request.body) };
      const principal = principalOf(request);
      const context = createGraphqlContext(services, { requestId: request.id, accountId: accountIdOf(principal), scopes: scopesOf(principal) });
      const data = await operations.execute(route.document, route.variables(params), context);
      const body = route.respond(data, params);
      return reply.status(route.status?.(body) ?? 200).send(body);
    },
  });
}
