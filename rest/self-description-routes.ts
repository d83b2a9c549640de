// The API's self-description, served as the spec's open discovery routes (no key, no rate limit):
// GET / (an HTML page for a browser), /v1/llms.txt, /v1/docs.md, /v1/openapi.json and /v1/examples.
// Documents are rendered once, at registration.
import type { FastifyInstance } from 'fastify';
import { EXAMPLES } from './self-description/examples.ts';
import { renderDocsMarkdown, renderLlmsTxt } from './self-description/index.ts';
import { rootDocument } from './self-description/root.ts';
import { prefersHtml, rootPage } from './self-description/root-page.ts';
import { DASHBOARD_PATH } from '../src/scrapes/dashboard/dashboard-page.ts';
import { AUTH_RULE } from './openapi/usage-rules.ts';
import type { Services } from '../src/platform/services.ts';
import { buildOpenApiDocument } from './openapi/document.ts';

/** Self-description documents change only with a deploy; a short shared cache spares repeated fetches. */
const CACHE_CONTROL = 'public, max-age=300';

export function registerSelfDescriptionRoutes(app: FastifyInstance, services: Services): void {
  const openapi = JSON.stringify(
    buildOpenApiDocument({ serverUrl: services.config.PUBLIC_BASE_URL }),
  );
  const docs = renderDocsMarkdown();
  const llms = renderLlmsTxt();
  const root = rootDocument(AUTH_RULE);

  const send = (url: string, contentType: string, body: unknown) =>
    app.get(url, { config: { servesNoData: true } }, async (_request, reply) =>
      reply.header('cache-control', CACHE_CONTROL).type(contentType).send(body),
    );

  const rootHtml = rootPage(root, DASHBOARD_PATH);
  // a browser gets the page, every other client the JSON document (rest of this file: one type each)
  app.get('/', { config: { servesNoData: true } }, async (request, reply) => {
    reply.header('cache-control', CACHE_CONTROL).header('vary', 'Accept');
    if (prefersHtml(request.headers.accept))
      return reply.type('text/html; charset=utf-8').send(rootHtml);
    return reply.type('application/json; charset=utf-8').send(root);
  });
  send('/v1/llms.txt', 'text/plain; charset=utf-8', llms);
  send('/v1/docs.md', 'text/markdown; charset=utf-8', docs);
  send('/v1/openapi.json', 'application/json; charset=utf-8', openapi);
  send('/v1/examples', 'application/json; charset=utf-8', EXAMPLES);
}
