// The webhook outbox: a scrape request's end writes its event into webhook_deliveries and queues
// the delivery job in the same transaction, so an event exists exactly when the request ended.
// (scrape_request_id, event) is unique: a request's event is written once, whatever retries.
import { enqueueJob, type Queryable } from '../../platform/jobs/job-queue.ts';
import { DELIVER_WEBHOOK_TASK } from '../../platform/jobs/webhook-task.ts';
import type { ScrapeRecord } from '../scrape-record.ts';
import { scrapeWebhookBody } from './webhook-body.ts';

export async function queueScrapeWebhook(
  db: Queryable,
  record: ScrapeRecord & { status: 'done' | 'failed'; finishedAt: string; callbackUrl: string },
  maxAttempts: number,
): Promise<void> {
  const body = scrapeWebhookBody(record);
  const {
    rows: [delivery],
  } = await db.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (id, scrape_request_id, event, url, payload, next_attempt_at)
     VALUES (gen_random_uuid(), $1, $2, $3, $4::jsonb, $5)
     ON CONFLICT (scrape_request_id, event) DO NOTHING
     RETURNING id::text`,
    [record.id, body.type, record.callbackUrl, JSON.stringify(body), record.finishedAt],
  );
  if (delivery) {
    await enqueueJob(
      db,
      DELIVER_WEBHOOK_TASK,
      { deliveryId: delivery.id },
      { jobKey: `webhook:${delivery.id}`, maxAttempts },
    );
  }
}
