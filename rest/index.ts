// registerRest(app, services, runRoute): the /v1 catalog routes and the self-description routes on
// a Fastify scope. A catalog route parses its parameters (the pipeline's parse stage) and runs
// through runRoute (its persisted operation through the request pipeline, src/gateway/pipeline.ts:
// the same context, admission, response cache and error masking as /graphql) to the /v1 body: no
// business logic, no execution or charging of its own.
import type { FastifyInstance } from 'fastify';
import type { Admission } from '../src/access/admission.ts';
import { isDataPrincipal } from '../src/access/principal.ts';
import type { Services } from '../src/platform/services.ts';
import { registerSelfDescriptionRoutes } from './self-description-routes.ts';
import { callerQueryOf, exportTypeOf } from './export/export-format.ts';
import { sendAnswerExport } from './export/export-answer.ts';
import { sendExport } from './export/export-list.ts';
import { registerReferencePage } from './reference-page.ts';
import { parseBody, parseParams } from './parse-params.ts';
import { fastifyPath, type RestRoute } from './route.ts';
import type { RunRoute } from './run-route.ts';
import { catalogRoutes } from './routes/index.ts';

export { catalogRoutes } from './routes/index.ts';
export { routeRunner, type RunRoute } from './run-route.ts';

export interface RestOptions {
  /** how deep a caller may list (its plan's result window): exports stop there */
  admission: Admission;
  /** items per page of an export, each page one list call (default 100, the largest `limit`) */
  exportPageSize?: number;
}

export async function registerRest(
  app: FastifyInstance,
  services: Services,
  runRoute: RunRoute,
  options: RestOptions,
): Promise<void> {
  for (const route of catalogRoutes) registerCatalogRoute(app, runRoute, route, options);
  registerSelfDescriptionRoutes(app, services);
  await registerReferencePage(app);
}

/** each request's parameters, parsed once in preValidation */
const parsedParams = new WeakMap<object, Record<string, unknown>>();

function registerCatalogRoute(
  app: FastifyInstance,
  runRoute: RunRoute,
  route: RestRoute,
  options: RestOptions,
): void {
  const querySchema = callerQueryOf(route);
  app.route({
    method: route.method,
    url: fastifyPath(route.path),
    // the caller's parameters are checked before anything runs: a request refused as malformed is
    // never executed, so it counts against nothing
    preValidation: async (request) => {
      parsedParams.set(request, {
        ...parseParams(route, request.params, request.query, querySchema),
        ...parseBody(route, request.body),
      });
    },
    handler: async (request, reply) => {
      const params = parsedParams.get(request)!;
      if (route.exportable) {
        reply.header('vary', 'Accept');
        const exportType = exportTypeOf(params.format, request.headers.accept);
        if (exportType) {
          const caller = request.principal;
          return sendExport(exportType, route, params, request, reply, runRoute, {
            window: isDataPrincipal(caller) ? options.admission.resultWindowOf(caller).window : 0,
            pageSize: options.exportPageSize,
          });
        }
      }
      const exportType = route.answerExport
        ? exportTypeOf(params.format, request.headers.accept)
        : undefined;
      if (route.answerExport) reply.header('vary', 'Accept');
      const { status, body } = await runRoute(route, params, {
        principal: request.principal,
        req: request,
        reply,
      });
      if (exportType) return sendAnswerExport(exportType, route, body, params, reply);
      return reply.status(status).send(body);
    },
  });
}
