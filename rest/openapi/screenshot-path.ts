// GET /v1/stores/{domain}/screenshot in the OpenAPI description. It is not a catalog route (its
// answer is an image, not JSON), so it is described here, beside the route that serves it.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { DATA_ROUTE_ERRORS, errorResponses } from './error-responses.ts';
import { RATE_LIMIT_HEADERS } from './rate-limit-headers.ts';
import { UNLISTED } from '../../src/seed/seeded-catalog.ts';

export function registerScreenshotPath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/v1/stores/{domain}/screenshot',
    operationId: 'getStoreScreenshot',
    tags: ['Stores'],
    summary: "The store's homepage screenshot (an image)",
    description:
      'The storefront homepage as a headless browser rendered it (1280x800) on the latest scrape that had one available; ' +
      "the store's `screenshotUrl` points here. No daily bucket; only the key's per-minute rate and per-key daily ceiling.\n\n" +
      `Example: \`GET /v1/stores/${UNLISTED.store}/screenshot\``,
    request: {
      params: z.object({
        domain: z.string().meta({
          description: `The store domain, e.g. ${UNLISTED.store} once scraped.`,
          example: UNLISTED.store,
        }),
      }),
    },
    responses: {
      200: {
        description: 'The image; Content-Type says its format (image/jpeg).',
        headers: RATE_LIMIT_HEADERS,
        content: { 'image/jpeg': { schema: z.string().meta({ format: 'binary' }) } },
      },
      ...errorResponses([...DATA_ROUTE_ERRORS, 'not_found']),
    },
  });
}
