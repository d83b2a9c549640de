// The OpenAPI 3.1 `webhooks` section: scrape.done and scrape.failed, POSTed once to a scrape
// request's callbackUrl when it ends, and alert.matched, batched to an alert's callbackUrl; signed per Standard Webhooks (https://www.standardwebhooks.com).
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { AlertWebhookBody } from '../../src/alerts/alert-webhooks.ts';
import { ScrapeWebhookBody } from '../../src/scrapes/webhooks/webhook-body.ts';

const SIGNATURE_HEADERS = z.object({
  'webhook-id': z.string().meta({
    description:
      'Unique per event and the same on every retry of it: deduplicate on it (each event is meant once, delivered at least once).',
  }),
  'webhook-timestamp': z.string().meta({
    description:
      'Unix seconds of this attempt; part of the signed content. Refuse stale ones (e.g. older than 5 minutes).',
  }),
  'webhook-signature': z.string().meta({
    description:
      'v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}"> keyed with the base64-decoded part of the ' +
      "server's signing secret (whsec_...: WEBHOOK_SIGNING_SECRET, or the one the service generated; the operator reads it " +
      'with `npm run keys -- webhook-secret`). Verify with any Standard Webhooks library before trusting the body.',
  }),
});

const DELIVERY =
  'Retries: any answer other than 2xx within the timeout (10 s by default) is retried with exponential backoff ' +
  '(about 3 s, 7 s, 20 s, 55 s, 2.5 min, 7 min, 18 min, 50 min, 2.2 h, then every 6 h) up to 12 attempts (WEBHOOK_MAX_ATTEMPTS), ' +
  'then given up. Redirects are not followed. The callback URL must be HTTPS and resolve to a public address.';

export function registerWebhooks(registry: OpenAPIRegistry): void {
  for (const [event, when] of [
    ['scrape.done', 'the scrape request reached done; the store is readable at data.storeUrl'],
    ['scrape.failed', 'the scrape request reached failed; data.failureReason says why'],
  ] as const) {
    registry.registerWebhook({
      method: 'post',
      path: event,
      tags: ['Scrapes'],
      summary: `${event}: ${when}`,
      description: `Sent once, when ${when}, to the callbackUrl of POST /v1/scrapes (or of each bulk item). ${DELIVERY}`,
      request: {
        headers: SIGNATURE_HEADERS,
        body: { required: true, content: { 'application/json': { schema: ScrapeWebhookBody } } },
      },
      responses: { 200: { description: 'Any 2xx acknowledges the event.' } },
    });
  }
  registry.registerWebhook({
    method: 'post',
    path: 'alert.matched',
    tags: ['Alerts'],
    summary: 'alert.matched: stores newly matched an alert',
    description:
      'Sent to the callbackUrl of POST /v1/alerts when stores newly matched the alert: at most one a minute per alert, ' +
      `listing the matches since the previous one (data.matches, oldest first). ${DELIVERY}`,
    request: {
      headers: SIGNATURE_HEADERS,
      body: { required: true, content: { 'application/json': { schema: AlertWebhookBody } } },
    },
    responses: { 200: { description: 'Any 2xx acknowledges the event.' } },
  });
}
