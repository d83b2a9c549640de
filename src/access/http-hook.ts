// The identify stage of every HTTP request (src/gateway/pipeline.ts), as one onRequest hook on the
// server's root (so it runs before every surface's routes): a credential in the query string is
// refused outright; routes that serve no data (self-description documents, health, pages) pass
// untouched; a route that admits anonymous callers (/graphql) only learns who is calling; every
// other route needs a key (or open-dev mode). The caller is set on the request (`request.principal`),
// which each face hands on in its server context. Each route says which it is in its own Fastify
// config, so no path is listed here. Operations are admitted later, after their parameters were
// checked (a request refused as malformed counts against nothing); only a data route that runs no
// operation is admitted here, by a preHandler hook, through the same admission.ts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../platform/errors.ts';
import type { Access } from './access.ts';
import { credentialInQuery, keyInQueryError } from './credentials.ts';
import { isDataPrincipal, type Principal } from './principal.ts';
import type { Charge } from './quota.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** a data route that runs no GraphQL operation (a screenshot image): charged here, one request against the rate and per-key ceiling */
    chargedPerRequest?: boolean;
    /** a route whose requests count here against the per-minute rate alone, this many units for a parsed body (MCP: its messages the routes do not charge) */
    rateUnitsOf?: (body: unknown) => number;
    /** a route that serves no catalog data (self-description documents, health, the dashboard's HTML): no key, never limited */
    servesNoData?: boolean;
    /** callers are identified but may be anonymous (/graphql: what an anonymous caller may run is its fields' to decide) */
    anonymousAllowed?: boolean;
  }
  interface FastifyRequest {
    /** who is calling, set by the identify hook; null on a route that serves no data (or none matched) */
    principal: Principal | null;
  }
}

/** Sets the caller on the request; a route that needs data refuses the web app's credential. */
function admitCaller(
  request: FastifyRequest,
  principal: Principal,
  allowAnonymous: boolean,
  done: (error?: Error) => void,
): void {
  request.principal = principal;
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
  // every request object has the property from its creation on
  app.decorateRequest('principal', null);
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
      const principal = request.principal;
      if (!isDataPrincipal(principal)) return done();
      const charge: Charge = chargedPerRequest
        ? { units: 1, buckets: {} }
        : { units: rateUnitsOf!(request.body), buckets: {}, rateOnly: true };
      if (charge.units <= 0) return done();
      let admitted;
      try {
        admitted = access.admission.admitRequest(principal, charge, reply);
      } catch (error) {
        return done(error as Error);
      }
      if (admitted instanceof Promise) admitted.then(() => done(), done);
      else done();
    },
  );
  app.addHook('onClose', () => access.close());
}
