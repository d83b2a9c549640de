// GET /docs: the HTML API reference over /v1/openapi.json, rendered in the browser by Scalar. The
// Fastify plugin serves Scalar's standalone script from the npm package itself (at /docs/js/),
// and the configuration turns off everything that would reach another host: web fonts, telemetry,
// the hosted API client, the AI chat and the MCP buttons. Like the discovery documents, the page holds no data of
// its own and needs no key; its "test request" panel sends the key the reader types as a header.
import scalarApiReference from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import { cspNonce, withScriptNonces } from '../src/http/content-security-policy.ts';
import { SELF_DESCRIPTION_LINKS } from './self-description/root.ts';

/** The script changes only with a deploy, like the discovery documents (the page itself carries a nonce per answer). */
const CACHE_CONTROL = 'public, max-age=300';

export async function registerReferencePage(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    // the plugin's routes take no config of their own: mark each as a page that serves no data
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, servesNoData: true };
    });
    // the plugin's page (made from this file's configuration alone, the same on every answer) gets
    // each answer's CSP nonce on its script tags; the nonce is drawn in preHandler, before the
    // security headers name it. A page whose nonce is its own is never stored for others.
    let page: { html: string; withNonce: (nonce: string) => string } | undefined;
    scope.addHook('onSend', (_request, reply, payload, done) => {
      if (
        typeof payload !== 'string' ||
        !String(reply.getHeader('content-type') ?? '').startsWith('text/html')
      )
        return done(null, payload);
      if (page?.html !== payload) page = { html: payload, withNonce: withScriptNonces(payload) };
      reply.header('cache-control', 'no-cache');
      done(null, page.withNonce(cspNonce(reply)));
    });
    await scope.register(scalarApiReference, {
      routePrefix: SELF_DESCRIPTION_LINKS.reference,
      logLevel: 'warn',
      hooks: {
        preHandler: async (_request, reply) => {
          reply.header('cache-control', CACHE_CONTROL);
          cspNonce(reply);
        },
      },
      configuration: {
        url: SELF_DESCRIPTION_LINKS.openapi,
        pageTitle: 'Store-Intelligence API reference',
        withDefaultFonts: false,
        telemetry: false,
        hideClientButton: true,
        showDeveloperTools: 'never',
        mcp: { disabled: true },
        // the key header the console fills: an empty X-Api-Key is no key (open-dev mode answers), where an
        // empty bearer is a malformed Authorization header (401)
        authentication: { preferredSecurityScheme: 'apiKeyHeader' },
        agent: { disabled: true },
      },
    });
  });
}
