// The access check of every HTTP request, as one onRequest hook on the server's root (so it runs
// before every surface's routes): a credential in the query string is refused outright; routes that
// serve no data (discovery documents, health, pages) pass untouched; a route that admits anonymous
// callers (/graphql) only learns who is calling; every other route needs a key (or open-dev mode).
// Each route says which it is in its own Fastify config, so no path is listed here. Operations are not charged here: REST routes and /graphql run their operations through
// the one envelop pipeline, whose access plugin (graphql-plugin.ts) charges each operation after
// its parameters were checked, so a request refused as malformed counts against nothing. Only a data
// route that runs no operation (chargedPerRequest) is charged here.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../platform/errors.ts';
import type { Access } from './access.ts';
import { credentialInQuery, keyInQueryError } from './credentials.ts';
import { rateLimitHeaders } from './headers.ts';
import { bindPrincipal, isDataPrincipal, principalOf, type Principal } from './principal.ts';
import { RateLimitedError, type Charge } from './quota.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** a data route that runs no GraphQL operation (a screenshot image): charged here, one request against the rate and per-key ceiling */
    chargedPerRequest?: boolean;
    /** a route whose requests count here against the per-minute rate alone, this many units for a parsed body (MCP: its messages the routes do not charge) */
    rateUnitsOf?: (body: unknown) => number;
    /** a route that serves no catalog data (discovery documents, health, the dashboard's HTML): no key, never limited */
    servesNoData?: boolean;
    /** callers are identified but may be anonymous (/graphql: what an anonymous caller may run is its fields' to decide) */
    anonymousAllowed?: boolean;
  }
}

/** Binds the caller to the request; a route that needs data refuses the web app's credential. */
function admitCaller(
  request: FastifyRequest,
  principal: Principal,
  allowAnonymous: boolean,
  done: (error?: Error) => void,
): void {
  bindPrincipal(request, principal);
  // /graphql: what an anonymous caller (or the web app) may run is its fields' to decide
  if (allowAnonymous || isDataPrincipal(principal)) return done();
  done(
    new ApiError(
      'unauthorized',
      'The service token manages keys through /graphql only; data routes need an API key.',
    ),
  );
}

export function registerAccess(app: FastifyInstance, access: Access): void {
  // in Fastify's callback form: a cached key (nearly every request) is identified at once, with no promise
  app.addHook(
    'onRequest',
    (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      const parameter = credentialInQuery(request.url);
      if (parameter !== undefined) return done(keyInQueryError(parameter));

      const { url: route, config } = request.routeOptions;
      // no route: the not-found handler answers, and a path that does not exist costs nothing
      if (route === undefined || config.servesNoData) return done();

      const allowAnonymous = config.anonymousAllowed === true;
      const principal = access.identify(request.headers, {
        allowAnonymous,
        client: request.ip,
        connection: request.raw.socket,
      });
      if (principal instanceof Promise)
        principal.then((settled) => admitCaller(request, settled, allowAnonymous, done), done);
      else admitCaller(request, principal, allowAnonymous, done);
    },
  );
  // in Fastify's callback form: most routes pass straight through it, and then no promise is made
  app.addHook(
    'preHandler',
    (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
      const { chargedPerRequest, rateUnitsOf } = request.routeOptions.config;
      if (!chargedPerRequest && !rateUnitsOf) return done();
      const principal = principalOf(request);
      if (!isDataPrincipal(principal)) return done();
      const charge: Charge = chargedPerRequest
        ? { units: 1, buckets: {} }
        : { units: rateUnitsOf!(request.body), buckets: {}, rateOnly: true };
      if (charge.units <= 0) return done();
      // Promise.resolve().then: a refusal thrown at once (in-process counters) and one rejected (Redis) take the same path
      Promise.resolve()
        .then(() => access.admit(principal, charge, reply.raw))
        .then(
          (limits) => {
            reply.headers(rateLimitHeaders(limits));
            done();
          },
          (error: Error) => {
            if (error instanceof RateLimitedError) reply.headers(rateLimitHeaders(error.limits));
            done(error);
          },
        );
    },
  );
  app.addHook('onClose', () => access.close());
}
