// One route run once: its parsed parameters become variables, its persisted operation runs through
// the request pipeline (src/gateway/pipeline.ts, runOperation: admission with the caller its server
// context carries, the response cache, execution, error masking) and its data becomes the /v1 body
// and status, the pipeline's shape stage for REST. REST's handlers, MCP's tool calls and the list
// exports all run routes through this, so each is charged, cached and answers errors exactly as a
// plain REST request would.
import type { PersistedOperations } from '../src/gateway/persisted-operations.ts';
import type { RunOperation } from '../src/gateway/pipeline.ts';
import type { ServerContext } from '../src/gateway/server-context.ts';
import type { Logger } from '../src/platform/logger.ts';
import { toApiError } from './graphql-errors.ts';
import type { Found, RestRoute } from './route.ts';

export interface RouteAnswer {
  status: number;
  body: unknown;
}

/** Throws the route's ApiError (bad_request, not_found, rate_limited, …) when the operation fails. */
export type RunRoute = (
  route: RestRoute,
  params: Record<string, unknown>,
  serverContext: ServerContext,
) => Promise<RouteAnswer>;

export function routeRunner(
  routes: readonly RestRoute[],
  operations: PersistedOperations,
  runOperation: RunOperation,
  logger: Logger,
): RunRoute {
  // a route whose operation is not persisted fails the start, not its first request
  const operationOf = new Map(routes.map((route) => [route, operations.get(route.document)]));
  return async (route, params, serverContext) => {
    const operation = operationOf.get(route);
    if (!operation) throw new Error(`${route.operationId} is not in the route table`);
    const result = await runOperation(
      operation,
      withoutUndefined(route.variables(params)),
      serverContext,
    );
    if (result.errors?.length) throw toApiError(result.errors, logger, operation.name);
    const body = route.respond(result.data as Found<unknown>, params);
    return { status: route.status?.(body) ?? 200, body };
  };
}

/** An explicit undefined would reach resolvers as null; an absent key takes the defaults. */
function withoutUndefined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}
