// The access check of every HTTP request, as one onRequest hook on the server's root (so it runs
// before every surface's routes): a credential in the query string is refused outright; discovery
// routes pass untouched; /graphql only learns who is calling (the GraphQL plugin charges each
// operation); every other route needs a key (or open-dev mode), is charged in the bucket its route
// config names, and answers with the rate-limit headers. Charging waits for preHandler, after the
// route's own validation (its query, path and body: preValidation), so a request refused as
// malformed counts against nothing; a route whose cost depends on its body (quotaUnits) reads it there.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DISCOVERY_LINKS } from '../discovery/root.ts';
import { GRAPHQL_PATH } from '../graphql/yoga.ts';
import { ApiError } from '../platform/errors.ts';
import type { Access } from './access.ts';
import { credentialInQuery, keyInQueryError } from './credentials.ts';
import { rateLimitHeaders } from './headers.ts';
import type { QuotaBucket } from './plans.ts';
import { bindPrincipal, isDataPrincipal, principalOf, type DataPrincipal } from './principal.ts';
import { RateLimitedError } from './quota.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the account's daily bucket a request to this route counts against (spec part 5.6); none = only the rate and per-key ceiling */
    quotaBucket?: QuotaBucket;
    /** units a request costs, read from its body (throws bad_request on a malformed body); none = 1, charged before the body is read */
    quotaUnits?: (body: unknown) => number;
    /** a page that holds no data (the scrape dashboard's HTML): no key, never limited; its data comes through /graphql with a key */
    servesNoData?: boolean;
  }
}

/** Open routes: no key, never limited (spec part 4). */
export const OPEN_ROUTES: ReadonlySet<string> = new Set([
  '/',
  DISCOVERY_LINKS.llmsTxt,
  DISCOVERY_LINKS.docs,
  DISCOVERY_LINKS.openapi,
  DISCOVERY_LINKS.examples,
  DISCOVERY_LINKS.health,
]);

const PAGE_NUMBER = /^\d{1,15}$/;
const DEFAULT_LIMIT = 20;

/** offset + limit as the caller wrote them; malformed values are left to the route's own validation. */
function pageOf(query: unknown): { offset: number; limit: number } | undefined {
  const { offset, limit } = (query ?? {}) as Record<string, unknown>;
  if (offset === undefined && limit === undefined) return undefined;
  const number = (value: unknown, fallback: number) =>
    value === undefined ? fallback : typeof value === 'string' && PAGE_NUMBER.test(value) ? Number(value) : undefined;
  const page = { offset: number(offset, 0), limit: number(limit, DEFAULT_LIMIT) };
  return page.offset === undefined || page.limit === undefined ? undefined : (page as { offset: number; limit: number });
}

export function registerAccess(app: FastifyInstance, access: Access): void {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const parameter = credentialInQuery(request.url);
    if (parameter !== undefined) throw keyInQueryError(parameter);

    const route = request.routeOptions.url;
    // no route: the not-found handler answers, and a path that does not exist costs nothing
    if (route === undefined || OPEN_ROUTES.has(route) || request.routeOptions.config.servesNoData) return;

    if (route === GRAPHQL_PATH) {
      bindPrincipal(request, await access.identify(request.headers, { allowAnonymous: true, client: request.ip }));
      return;
    }

    const principal = await access.identify(request.headers, { allowAnonymous: false, client: request.ip });
    bindPrincipal(request, principal);
    if (!isDataPrincipal(principal)) {
      throw new ApiError('unauthorized', 'The service token manages keys through /graphql only; data routes need an API key.');
    }
  });
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url;
    if (route === undefined || route === GRAPHQL_PATH || OPEN_ROUTES.has(route) || request.routeOptions.config.servesNoData) return;
    const principal = principalOf(request);
    if (!isDataPrincipal(principal)) return;
    const unitsOf = request.routeOptions.config.quotaUnits;
    await charge(access, request, reply, principal, unitsOf ? unitsOf(request.body) : 1);
  });
  app.addHook('onClose', () => access.close());
}

async function charge(access: Access, request: FastifyRequest, reply: FastifyReply, principal: DataPrincipal, units: number): Promise<void> {
  const bucket = request.routeOptions.config.quotaBucket;
  try {
    const limits = await access.admit(principal, { units, buckets: bucket ? { [bucket]: units } : {} }, pageOf(request.query));
    reply.headers(rateLimitHeaders(limits));
  } catch (error) {
    if (error instanceof RateLimitedError) reply.headers(rateLimitHeaders(error.limits));
    throw error;
  }
}
