// The access check of every HTTP request, as one onRequest hook on the server's root (so it runs
// before every surface's routes): a credential in the query string is refused outright; discovery
// routes pass untouched; /graphql only learns who is calling; every other route needs a key (or
// open-dev mode). Operations are not charged here: REST routes and /graphql run their operations through
// the one envelop pipeline, whose access plugin (graphql-plugin.ts) charges each operation after
// its parameters were checked, so a request refused as malformed counts against nothing. Only a data
// route that runs no operation (chargedPerRequest) is charged here.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DISCOVERY_LINKS } from '../discovery/root.ts';
import { GRAPHQL_PATH } from '../graphql/yoga.ts';
import { ApiError } from '../platform/errors.ts';
import type { Access } from './access.ts';
import { credentialInQuery, keyInQueryError } from './credentials.ts';
import { rateLimitHeaders } from './headers.ts';
import { bindPrincipal, isDataPrincipal, principalOf } from './principal.ts';
import { RateLimitedError } from './quota.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** a data route that runs no GraphQL operation (a screenshot image): charged here, one request against the rate and per-key ceiling */
    chargedPerRequest?: boolean;
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

export function registerAccess(app: FastifyInstance, access: Access): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
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
    if (!request.routeOptions.config.chargedPerRequest) return;
    const principal = principalOf(request);
    if (!isDataPrincipal(principal)) return;
    try {
      reply.headers(rateLimitHeaders(await access.admit(principal, { units: 1, buckets: {} })));
    } catch (error) {
      if (error instanceof RateLimitedError) reply.headers(rateLimitHeaders(error.limits));
      throw error;
    }
  });
  app.addHook('onClose', () => access.close());
}
