// GET /v1/stores/{domain}/screenshot: the image bytes of the store's latest homepage screenshot.
// A plain route, not a GraphQL operation: the answer is an image, not JSON. Like the other /v1
// data routes it needs an API key (the access hook runs on every route not listed as open).
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import { normalizeDomain } from '../../stores/domain.ts';
import { readScreenshot } from './screenshot-store.ts';

export const SCREENSHOT_PATH = '/v1/stores/:domain/screenshot';

export async function registerStoreScreenshot(
  app: FastifyInstance,
  services: Services,
): Promise<void> {
  app.get<{ Params: { domain: string } }>(
    SCREENSHOT_PATH,
    { config: { chargedPerRequest: true } },
    async (request, reply) => {
      const domain = normalizeDomain(request.params.domain);
      const shot = await readScreenshot(services.db.read, domain);
      if (!shot)
        throw notFound(
          `No screenshot of ${domain}: it has not been scraped with a Chromium available.`,
          { domain },
        );
      return reply
        .type(shot.contentType)
        .header('last-modified', shot.takenAt.toUTCString())
        .header('cache-control', 'private, max-age=300')
        .send(shot.image);
    },
  );
}
