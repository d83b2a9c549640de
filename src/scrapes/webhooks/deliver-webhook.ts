// The delivery job of one outbox row: POST the event to the callback URL, signed per Standard
// Webhooks (webhook-id = the delivery id, the same on every retry, so receivers deduplicate;
// webhook-timestamp; webhook-signature v1 HMAC-SHA256 with WEBHOOK_SIGNING_SECRET). A 2xx answer
// delivers it; anything else is recorded and retried with graphile-worker's exponential backoff
// (e^attempt seconds) until WEBHOOK_MAX_ATTEMPTS, then the row is marked failed. Redirects are not
// followed: a receiver answers where it was registered.
import type { JobHelpers } from 'graphile-worker';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import { EgressError } from '../../platform/egress/egress-error.ts';
import type { Egress } from '../../platform/egress/egress.ts';
import type { Logger } from '../../platform/logger.ts';
import type pg from 'pg';

const Payload = z.object({ deliveryId: z.uuid() });

export interface WebhookDeliveryDeps {
  pool: pg.Pool;
  egress: Egress;
  /** undefined: webhooks are not configured, and no request could have asked for one */
  signingSecret: string | undefined;
  logger: Logger;
  clock: () => Date;
}

interface DeliveryRow {
  id: string;
  url: string;
  payload: unknown;
  status: 'pending' | 'delivered' | 'failed';
}

/** graphile-worker's retry delay after `attempts` failures, for the outbox's next_attempt_at */
const retryDelayMs = (attempts: number) => Math.exp(Math.min(attempts, 10)) * 1_000;

export function deliverWebhookTask(deps: WebhookDeliveryDeps) {
  return async (payload: unknown, helpers: JobHelpers): Promise<void> => {
    const { deliveryId } = Payload.parse(payload);
    const {
      rows: [delivery],
    } = await deps.pool.query<DeliveryRow>(
      'SELECT id::text, url, payload, status::text FROM webhook_deliveries WHERE id = $1',
      [deliveryId],
    );
    if (delivery?.status !== 'pending') return;
    if (!deps.signingSecret)
      throw new Error('WEBHOOK_SIGNING_SECRET is not set: the webhook cannot be signed');

    const body = JSON.stringify(delivery.payload);
    const sentAt = deps.clock();
    const headers = {
      'content-type': 'application/json',
      'webhook-id': delivery.id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': new Webhook(deps.signingSecret).sign(delivery.id, sentAt, body),
    };

    let statusCode: number | null = null;
    let problem: string;
    try {
      const response = await deps.egress.fetch(delivery.url, {
        method: 'POST',
        headers,
        body,
        maxRedirects: 0,
      });
      statusCode = response.status;
      if (statusCode >= 200 && statusCode < 300) {
        await deps.pool.query(
          `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, last_status_code = $2,
                  last_error = NULL, delivered_at = $3 WHERE id = $1`,
          [delivery.id, statusCode, deps.clock()],
        );
        return;
      }
      problem = `the receiver answered HTTP ${statusCode}`;
    } catch (error) {
      if (!(error instanceof EgressError)) throw error;
      problem = error.message;
    }

    const attempts = helpers.job.attempts;
    const final = attempts >= helpers.job.max_attempts;
    await deps.pool.query(
      `UPDATE webhook_deliveries SET attempts = $2, last_status_code = $3, last_error = $4,
              status = $5::delivery_status, next_attempt_at = $6 WHERE id = $1`,
      [
        delivery.id,
        attempts,
        statusCode,
        problem,
        final ? 'failed' : 'pending',
        new Date(deps.clock().getTime() + retryDelayMs(attempts)),
      ],
    );
    if (final) {
      deps.logger.warn({ deliveryId, attempts, problem }, 'webhook delivery gave up');
      return;
    }
    throw new Error(`webhook delivery ${deliveryId}: ${problem}`);
  };
}
