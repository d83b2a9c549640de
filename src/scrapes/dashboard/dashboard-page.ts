// GET /dashboard/scrapes: the operations console for the internal dashboards. A static page (HTML,
// one stylesheet, one script, all from this folder: nothing comes from a CDN) that reads everything
// through /graphql like any client: the crawler's state (Subscription.crawlerStatus, for keys with
// operations:read), the account's scrape requests (Query and Subscription.recentScrapes) and a form
// that queues one (Mutation.requestScrape). The page holds no data itself and needs no key to load;
// it asks for one when the API does (console.js).
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { cspNonce, withScriptNonces } from '../../http/content-security-policy.ts';

export const DASHBOARD_PATH = '/dashboard/scrapes';
export const DASHBOARD_ASSETS_PATH = '/dashboard/assets';

const file = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8');
/** the page, its script tag carrying each answer's CSP nonce */
const PAGE = withScriptNonces(file('./console.html'));
const ASSETS: Record<string, { type: string; body: string }> = {
  'console.css': { type: 'text/css; charset=utf-8', body: file('./console.css') },
  'console.js': { type: 'text/javascript; charset=utf-8', body: file('./console.js') },
};

export async function registerScrapeDashboard(app: FastifyInstance): Promise<void> {
  app.get(DASHBOARD_PATH, { config: { servesNoData: true } }, async (_request, reply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(PAGE(cspNonce(reply))),
  );
  app.get<{ Params: { name: string } }>(
    `${DASHBOARD_ASSETS_PATH}/:name`,
    { config: { servesNoData: true } },
    async (request, reply) => {
      const asset = Object.hasOwn(ASSETS, request.params.name)
        ? ASSETS[request.params.name]
        : undefined;
      if (!asset) return reply.callNotFound();
      // revalidated on every load: the console changes with a deploy and is small
      return reply
        .header('content-type', asset.type)
        .header('cache-control', 'no-cache')
        .send(asset.body);
    },
  );
}
