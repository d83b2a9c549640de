// The state machine of a scrape request (spec part 3): queued -> validating -> scraping -> done,
// validating or scraping -> failed. Each move is one guarded UPDATE (a finished request never
// moves again, so a retried or duplicated job cannot undo an end), and the end writes the webhook
// outbox row in the same transaction.
import type { Queryable } from '../platform/jobs/job-queue.ts';
import {
  SCRAPE_COLUMNS,
  STATUS_TTL_MS,
  toScrapeRecord,
  type ScrapeFailureCode,
  type ScrapeRecord,
} from './scrape-record.ts';
import { queueScrapeWebhook } from './webhooks/webhook-outbox.ts';

const ACTIVE = `status IN ('queued', 'validating', 'scraping')`;

/** Moves an unfinished request to validating or scraping; null when it has already ended. */
export async function advanceScrape(
  db: Queryable,
  id: string,
  to: 'validating' | 'scraping',
  now: Date,
): Promise<ScrapeRecord | null> {
  const {
    rows: [row],
  } = await db.query(
    `UPDATE scrape_requests SET status = $2::scrape_status, started_at = COALESCE(started_at, $3), updated_at = $3
      WHERE id = $1 AND ${ACTIVE} RETURNING ${SCRAPE_COLUMNS}`,
    [id, to, now],
  );
  return row ? toScrapeRecord(row) : null;
}

export type ScrapeOutcome =
  | { status: 'done'; storeId: number }
  | { status: 'failed'; reason: string; code: ScrapeFailureCode };

/** Ends an unfinished request and queues its webhook; null when it had already ended. */
export async function finishScrape(
  db: Queryable,
  id: string,
  outcome: ScrapeOutcome,
  now: Date,
  webhookMaxAttempts: number,
): Promise<ScrapeRecord | null> {
  const {
    rows: [row],
  } = await db.query(
    `UPDATE scrape_requests
        SET status = $2::scrape_status, failure_reason = $3, store_id = COALESCE($4, store_id),
            started_at = COALESCE(started_at, $5), finished_at = $5, expires_at = $6, updated_at = $5,
            failure_code = $7
      WHERE id = $1 AND ${ACTIVE} RETURNING ${SCRAPE_COLUMNS}`,
    [
      id,
      outcome.status,
      outcome.status === 'failed' ? outcome.reason.slice(0, 1_000) : null,
      outcome.status === 'done' ? outcome.storeId : null,
      now,
      new Date(now.getTime() + STATUS_TTL_MS),
      outcome.status === 'failed' ? outcome.code : null,
    ],
  );
  if (!row) return null;
  const record = toScrapeRecord(row);
  if (record.callbackUrl) {
    await queueScrapeWebhook(
      db,
      {
        ...record,
        status: outcome.status,
        finishedAt: record.finishedAt!,
        callbackUrl: record.callbackUrl,
      },
      webhookMaxAttempts,
    );
  }
  return record;
}
