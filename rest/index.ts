// registerRest(app, services, operations, runOperation): the /v1 catalog routes and the discovery
// routes on a Fastify scope. A catalog route parses its parameters, runs its persisted operation
// through the one envelop pipeline (runOperation: the same context, access charging, response
// cache and error masking as /graphql) and shapes the /v1 body: no business logic, no execution
// or charging of its own.
import type { FastifyInstance } from 'fastify';
import type { PersistedOperations } from '../src/graphql/persisted-operations.ts';
import type { RunOperation } from '../src/graphql/yoga.ts';
import type { Services } from '../src/platform/services.ts';
import { registerDiscoveryRoutes } from './discovery-routes.ts';
import { registerReferencePage } from './reference-page.ts';
import { toApiError } from './graphql-errors.ts';
import { parseBody, parseParams } from './parse-params.ts';
import { fastifyPath, type RestRoute } from './route.ts';
import { catalogRoutes } from './routes/index.ts';

export async function registerRest(
  app: FastifyInstance,
  services: Services,
  operations: PersistedOperations,
  runOperation: RunOperation,
): Promise<void> {
  for (const route of catalogRoutes) registerCatalogRoute(app, services, operations, runOperation, route);
  registerDiscoveryRoutes(app, services);
  await registerReferencePage(app);
}

/** each request's parameters, parsed once in preValidation */
const parsedParams = new WeakMap<object, Record<string, unknown>>();

function registerCatalogRoute(
  app: FastifyInstance,
  services: Services,
  operations: PersistedOperations,
  runOperation: RunOperation,
  route: RestRoute,
): void {
  // a route whose operation is not persisted fails the start, not its first request
  const operation = operations.get(route.document);
  app.route({
    method: route.method,
    url: fastifyPath(route.path),
    // the caller's parameters are checked before anything runs: a request refused as malformed is
    // never executed, so it counts against nothing
    preValidation: async (request) => {
      parsedParams.set(request, { ...parseParams(route, request.params, request.query), ...parseBody(route, request.body) });
    },
    handler: async (request, reply) => {
      const params = parsedParams.get(request)!;
      const result = await runOperation(operation, withoutUndefined(route.variables(params)), { req: request, reply });
      if (result.errors?.length) throw toApiError(result.errors, services.logger, operation.name);
      const body = route.respond(result.data, params);
      return reply.status(route.status?.(body) ?? 200).send(body);
    },
  });
}

/** An explicit undefined would reach resolvers as null; an absent key takes the defaults. */
function withoutUndefined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}
