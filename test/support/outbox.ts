// "No duplicate" proofs wait for the queue to have nothing left that could deliver again, then
// assert: every webhook delivery of the scrape request has ended (delivered or failed) and no job
// of it (the scrape, any delivery) is still queued or running. Bounded, polled, never a bare sleep.
import type pg from 'pg';

export async function waitForOutboxDrained(
  pool: pg.Pool,
  scrapeRequestId: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await pool.query<{ open: number }>(
      `SELECT (SELECT count(*)::int FROM webhook_deliveries WHERE scrape_request_id = $1 AND status::text NOT IN ('delivered', 'failed'))
            + (SELECT count(*)::int FROM graphile_worker.jobs j
                WHERE j.key = 'scrape:' || $1 OR j.key IN (SELECT 'webhook:' || id FROM webhook_deliveries WHERE scrape_request_id = $1)) AS open`,
      [scrapeRequestId],
    );
    if (rows[0]!.open === 0) return;
    if (Date.now() > deadline)
      throw new Error(
        `the outbox of scrape request ${scrapeRequestId} still has ${rows[0]!.open} open items`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
