// alert.matched webhooks: an alert's matches go out in batches, at most one batch per alert per
// ALERT_WEBHOOK_INTERVAL_MS (a minute). A match queues the alert's batch job in its own transaction
// (alert-matching.ts); the job, when due, takes the matches no batch carried yet, writes one outbox
// row (webhook_deliveries, as scrape events do) with them, marks them carried and queues the
// delivery, all in one transaction, so a crash loses nothing and sends nothing twice. Delivery,
// signing (Standard Webhooks) and retries are the scrape webhooks' own (deliver-webhook.ts). The
// spacing is measured on the database's clock, the one the job queue runs jobs by.
import type { JobHelpers } from 'graphile-worker';
import type pg from 'pg';
import { z } from 'zod';
import { inTransaction } from '../platform/database/transaction.ts';
import { enqueueJob } from '../platform/jobs/job-queue.ts';
import { DELIVER_WEBHOOK_TASK } from '../platform/jobs/webhook-task.ts';
import { alertBatchJobKey, ALERT_BATCH_TASK } from './alert-matching.ts';

export const ALERT_EVENT = 'alert.matched';
/** a batch lists at most this many matches; the rest go in the next one */
export const MAX_BATCH_MATCHES = 500;

const time = z.string().meta({ description: 'ISO 8601 UTC.', example: '2026-01-05T10:02:11.000Z' });

export const AlertWebhookBody = z
  .object({
    type: z.literal(ALERT_EVENT).meta({ description: 'The event.' }),
    timestamp: time.meta({ description: 'When the batch was made; the same on every retry.' }),
    data: z
      .object({
        alert: z.object({
          id: z.number().int().meta({ description: 'The alert id.' }),
          name: z.string(),
        }),
        matches: z
          .array(
            z.object({
              domain: z.string().meta({ description: "The store's canonical domain." }),
              matchedAt: time.meta({
                description: 'When the observation that made it match was made.',
              }),
            }),
          )
          .meta({
            description: `The matches since the alert's previous batch, oldest first (at most ${MAX_BATCH_MATCHES}).`,
          }),
        matchesUrl: z
          .string()
          .meta({ description: 'Path of every match of the alert, newest first.' }),
      })
      .meta({ id: 'AlertWebhookData' }),
  })
  .meta({
    id: 'AlertMatchedEvent',
    description:
      "Sent when stores newly matched an alert with a callbackUrl: the matches since the alert's previous batch, at most one batch a minute per alert.",
  });
export type AlertWebhookBody = z.infer<typeof AlertWebhookBody>;

const Payload = z.object({ alertId: z.number().int() });

export interface AlertBatchDeps {
  pool: pg.Pool;
  clock: () => Date;
  intervalMs: number;
  webhookMaxAttempts: number;
}

export function alertBatchTask(deps: AlertBatchDeps) {
  return async (payload: unknown, _helpers: JobHelpers): Promise<void> => {
    const { alertId } = Payload.parse(payload);
    await inTransaction(deps.pool, async (client) => {
      const {
        rows: [alert],
      } = await client.query<{ name: string; callback_url: string | null; due: Date | null }>(
        `SELECT name, callback_url, CASE WHEN next_batch_at > now() THEN next_batch_at END AS due
           FROM alerts, LATERAL (SELECT last_batch_at + make_interval(secs => $2::float8 / 1000) AS next_batch_at) n
          WHERE id = $1 FOR UPDATE OF alerts`,
        [alertId, deps.intervalMs],
      );
      if (!alert?.callback_url) return; // deleted, or no callback
      if (alert.due) {
        // the previous batch is less than an interval old: come back when it is
        await enqueueJob(
          client,
          ALERT_BATCH_TASK,
          { alertId },
          { jobKey: alertBatchJobKey(alertId), runAt: alert.due },
        );
        return;
      }
      const { rows: matches } = await client.query<{
        id: string;
        domain: string;
        matched_at: Date;
      }>(
        `SELECT m.id::text, s.domain, m.matched_at FROM alert_matches m JOIN stores s ON s.id = m.store_id
          WHERE m.alert_id = $1 AND m.delivery_id IS NULL
          ORDER BY m.matched_at, m.id LIMIT $2 FOR UPDATE OF m`,
        [alertId, MAX_BATCH_MATCHES + 1],
      );
      if (matches.length === 0) return;
      const batch = matches.slice(0, MAX_BATCH_MATCHES);
      const now = deps.clock();
      const body: AlertWebhookBody = {
        type: ALERT_EVENT,
        timestamp: now.toISOString(),
        data: {
          alert: { id: alertId, name: alert.name },
          matches: batch.map((m) => ({ domain: m.domain, matchedAt: m.matched_at.toISOString() })),
          matchesUrl: `/v1/alerts/${alertId}/matches`,
        },
      };
      const {
        rows: [delivery],
      } = await client.query<{ id: string }>(
        `INSERT INTO webhook_deliveries (id, alert_id, event, url, payload, next_attempt_at)
         VALUES (gen_random_uuid(), $1, $2, $3, $4::jsonb, $5) RETURNING id::text`,
        [alertId, ALERT_EVENT, alert.callback_url, JSON.stringify(body), now],
      );
      await client.query('UPDATE alert_matches SET delivery_id = $2 WHERE id = ANY($1::bigint[])', [
        batch.map((m) => m.id),
        delivery!.id,
      ]);
      await client.query('UPDATE alerts SET last_batch_at = now() WHERE id = $1', [alertId]);
      await enqueueJob(
        client,
        DELIVER_WEBHOOK_TASK,
        { deliveryId: delivery!.id },
        { jobKey: `webhook:${delivery!.id}`, maxAttempts: deps.webhookMaxAttempts },
      );
      if (matches.length > MAX_BATCH_MATCHES) {
        await enqueueJob(
          client,
          ALERT_BATCH_TASK,
          { alertId },
          {
            jobKey: alertBatchJobKey(alertId),
            runAt: new Date(Date.now() + deps.intervalMs),
          },
        );
      }
    });
  };
}

/** How long a settled alert delivery (delivered, or failed for good) is kept for inspection. */
export const ALERT_DELIVERY_RETENTION_DAYS = 7;

/**
 * The worker's sweep: deletes alert deliveries settled more than ALERT_DELIVERY_RETENTION_DAYS ago,
 * by the database's clock (the one that stamped created_at).
 */
export async function sweepAlertDeliveries(pool: Pick<pg.Pool, 'query'>): Promise<void> {
  await pool.query(
    `DELETE FROM webhook_deliveries
      WHERE alert_id IS NOT NULL AND status <> 'pending' AND created_at < now() - make_interval(days => $1)`,
    [ALERT_DELIVERY_RETENTION_DAYS],
  );
}
