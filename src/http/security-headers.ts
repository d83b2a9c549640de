// Security headers on every answer, and the CORS policy of the API surfaces (/v1, /graphql and /mcp).
//
// CORS: any origin may call the API from a browser, without credentials. Authentication is by a
// key in a header (never a cookie), so a foreign page gains nothing a direct call would not give
// it, and a wildcard origin rules out credentialed requests by construction. A preflight is
// answered here, in an onRequest hook registered before the access check: browsers send it
// without the Authorization or X-Api-Key header it asks about. A fixed policy of a few lines needs
// no CORS library, and answering here keeps the access layer's rule "every other request needs a
// key" free of exceptions.
//
// Headers: nosniff, no referrer, no framing (nothing of ours is meant to be framed), a CSP that
// forbids a JSON answer from loading or running anything and lets an HTML page run only the
// scripts it was sent with (content-security-policy.ts), HSTS when the request came over TLS, and
// no-store on every answer whose route did not choose its own caching (data answers depend on the
// caller's key; the discovery documents and screenshots set their own Cache-Control).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RATE_LIMIT_HEADER_NAMES } from '../access/headers.ts';
import { htmlPolicy } from './content-security-policy.ts';

export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'] as const;
/** Mcp-Protocol-Version: what an MCP client sends after initialize (a browser-based one, e.g. an inspector) */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'X-Api-Key',
  'Content-Type',
  'X-Request-Id',
  'Mcp-Protocol-Version',
] as const;
export const CORS_EXPOSED_HEADERS = [
  ...Object.values(RATE_LIMIT_HEADER_NAMES),
  'Retry-After',
  'X-Request-Id',
  'X-Export-Total',
  'X-Export-Rows',
  'X-Export-Complete',
] as const;
/** how long a browser may reuse a preflight answer (Chromium caps it at 2 hours) */
export const CORS_MAX_AGE_SECONDS = 7_200;
/** one year, the usual HSTS lifetime; subdomains are the operator's to decide, so not included */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;

const ALLOWED_METHODS = CORS_ALLOWED_METHODS.join(', ');
const ALLOWED_HEADERS = CORS_ALLOWED_HEADERS.join(', ');
const EXPOSED_HEADERS = CORS_EXPOSED_HEADERS.join(', ');

const pathOf = (request: FastifyRequest) => {
  const queryStart = request.url.indexOf('?');
  return queryStart < 0 ? request.url : request.url.slice(0, queryStart);
};

/** The API surfaces a browser page may call: /v1 (REST and discovery), /graphql and /mcp. */
export const isCorsPath = (path: string) =>
  path === '/graphql' || path === '/mcp' || path === '/v1' || path.startsWith('/v1/');

const isPreflight = (request: FastifyRequest) =>
  request.method === 'OPTIONS' &&
  request.headers.origin !== undefined &&
  request.headers['access-control-request-method'] !== undefined;

/** TLS reached us directly, or a TLS-terminating proxy says so (X-Forwarded-Proto). Browsers ignore HSTS over plain HTTP anyway. */
function cameOverTls(request: FastifyRequest): boolean {
  if (request.protocol === 'https') return true;
  const forwarded = request.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)
    ?.split(',')[0]
    ?.trim()
    .toLowerCase();
  return first === 'https';
}

function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
  // HTML pages run the scripts they were sent with (content-security-policy.ts); every other answer loads nothing
  const html = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
  reply.header(
    'content-security-policy',
    html ? htmlPolicy(reply) : "default-src 'none'; frame-ancestors 'none'",
  );
  if (cameOverTls(request))
    reply.header('strict-transport-security', `max-age=${HSTS_MAX_AGE_SECONDS}`);
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
}

export function registerSecurityHeaders(app: FastifyInstance): void {
  // both hooks in Fastify's callback form: they do nothing asynchronous, so no promise per request
  app.addHook('onRequest', (request, reply, done) => {
    if (!isPreflight(request) || !isCorsPath(pathOf(request))) return done();
    // answered here: done() is not called, so nothing after this hook runs
    reply
      .status(204)
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', ALLOWED_METHODS)
      .header('access-control-allow-headers', ALLOWED_HEADERS)
      .header('access-control-max-age', String(CORS_MAX_AGE_SECONDS))
      .header('content-length', '0')
      .send();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    setSecurityHeaders(request, reply);
    if (isCorsPath(pathOf(request))) {
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    }
    done(null, payload);
  });
}
