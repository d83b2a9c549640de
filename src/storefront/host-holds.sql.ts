// Storefronts that asked us to wait, kept in crawler_host_holds so the wait outlives this process
// and binds every other one: a Retry-After of an hour is an hour, whoever asks next and whenever
// the worker restarted.
import type { Queryable } from '../platform/jobs/job-queue.ts';

export interface HostHolds {
  /** until when (epoch ms) `domain` asked us to wait, if that is still ahead */
  heldUntil(domain: string): Promise<number | undefined>;
  hold(domain: string, untilMs: number, reason: string): Promise<void>;
}

export const databaseHostHolds = (db: Queryable): HostHolds => ({
  async heldUntil(domain) {
    const {
      rows: [row],
    } = await db.query<{ until: Date }>(
      'SELECT until FROM crawler_host_holds WHERE domain = $1 AND until > now()',
      [domain],
    );
    return row?.until.getTime();
  },
  async hold(domain, untilMs, reason) {
    await db.query(
      `INSERT INTO crawler_host_holds (domain, until, reason) VALUES ($1, $2, $3)
       ON CONFLICT (domain) DO UPDATE SET until = GREATEST(crawler_host_holds.until, excluded.until), reason = excluded.reason`,
      [domain, new Date(untilMs), reason.slice(0, 1_000)],
    );
  },
});
