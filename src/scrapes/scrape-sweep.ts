// Upkeep run by every worker process on each sweep: a request whose job can no longer run (its
// attempts used up, e.g. a worker killed on the last one) is failed with the job's last error, so
// no request stays queued, validating or scraping forever; and requests past their 15-minute
// lifetime are deleted once their webhook is no longer being delivered.
import type pg from 'pg';
import type { Logger } from '../platform/logger.ts';
import { JOB_SCHEMA } from '../platform/jobs/job-queue.ts';
import type { PubSub } from '../platform/pubsub/pubsub.ts';
import { publishScrape } from './scrape-events.ts';
import { finishScrape } from './scrape-lifecycle.ts';
import { inTransaction } from '../platform/database/transaction.ts';

export interface ScrapeSweepDeps {
  pubsub: PubSub;
  logger: Logger;
  clock: () => Date;
  webhookMaxAttempts: number;
}

export async function sweepScrapes(pool: pg.Pool, deps: ScrapeSweepDeps): Promise<void> {
  const { rows: stranded } = await pool.query<{
    id: string;
    attempts: number | null;
    last_error: string | null;
  }>(
    `SELECT r.id::text, j.attempts, j.last_error
       FROM scrape_requests r
       LEFT JOIN ${JOB_SCHEMA}.jobs j ON j.key = 'scrape:' || r.id::text
      WHERE r.status IN ('queued', 'validating', 'scraping')
        AND (j.id IS NULL OR (j.locked_at IS NULL AND j.attempts >= j.max_attempts))`,
  );
  for (const request of stranded) {
    const lastError = request.last_error
      ? `; last error: ${request.last_error.split('\n')[0]!.slice(0, 200)}`
      : '';
    const reason = `the scrape stopped after ${request.attempts ?? 0} attempts${lastError}`;
    const record = await inTransaction(pool, (client) =>
      finishScrape(
        client,
        request.id,
        { status: 'failed', reason, code: 'internal' },
        deps.clock(),
        deps.webhookMaxAttempts,
      ),
    );
    if (record) {
      deps.logger.warn(
        { scrapeId: record.id, reason },
        'failed a scrape request whose job can no longer run',
      );
      await publishScrape(deps.pubsub, deps.logger, record);
    }
  }
  await pool.query(
    `DELETE FROM scrape_requests r
      WHERE r.expires_at < $1
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.scrape_request_id = r.id AND d.status = 'pending')`,
    [deps.clock()],
  );
}
