// The month partitions of the append-only series, one partition per UTC month, no DEFAULT
// partition: store_daily_snapshots by day and change_records by detected_at (migration
// 20261125080000_partitioned_history), inventory_snapshots by taken_at and insights by created_at
// (migration 20261127090000_partitioned_signal_history). So a row needs its month to exist before
// it is written:
// - upkeep (a worker sweep, at most hourly per process) makes the current month and the next
//   MONTHS_AHEAD, and drops the months past each series' retention (HISTORY_RETENTION_MONTHS for
//   the store history, SIGNALS_RETENTION_MONTHS for the Signals series);
// - a writer calls ensureMonthPartitions(pool, at) before the transaction that writes rows dated
//   `at` (a clock far ahead in tests, a gap in upkeep): once per month per pool, on a
//   connection of its own, so what it made is committed whatever happens to the writer's
//   transaction;
// - the seed makes the months of its whole calendar.
import type pg from 'pg';
import type { Logger } from '../logger.ts';

/** which retention setting a series follows */
export type RetentionClass = 'history' | 'signals';

/** the partitioned series, each by month of its time column, with the retention it follows */
export const PARTITIONED_SERIES = [
  { table: 'store_daily_snapshots', retention: 'history' },
  { table: 'change_records', retention: 'history' },
  { table: 'inventory_snapshots', retention: 'signals' },
  { table: 'insights', retention: 'signals' },
] as const satisfies ReadonlyArray<{ table: string; retention: RetentionClass }>;
/** months made ahead of the current one */
export const MONTHS_AHEAD = 3;

type Queryable = Pick<pg.Pool, 'query'>;

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const monthOf = (at: Date) => at.toISOString().slice(0, 7);

/** Makes every series' partitions for the months from `first` to `last` (UTC). Returns how many were made. */
export async function ensureMonthRange(db: Queryable, first: Date, last: Date): Promise<number> {
  let made = 0;
  for (const { table } of PARTITIONED_SERIES) {
    const { rows } = await db.query<{ made: number }>(
      'SELECT ensure_month_partitions($1::regclass, $2::date, $3::date) AS made',
      [table, dayOf(first), dayOf(last)],
    );
    made += rows[0]!.made;
  }
  return made;
}

/** months known to exist, per pool (one process may reach several databases: tests, tools) */
const ensuredByPool = new WeakMap<Queryable, Map<string, Promise<void>>>();

/**
 * Makes sure rows dated `at` have a partition in every series. Call it with a pool (autocommit),
 * before the transaction that writes them. Costs one round trip per series the first time a
 * pool meets a month, nothing after.
 */
export function ensureMonthPartitions(pool: Queryable, at: Date): Promise<void> {
  const month = monthOf(at);
  let ensured = ensuredByPool.get(pool);
  if (!ensured) ensuredByPool.set(pool, (ensured = new Map()));
  let done = ensured.get(month);
  if (!done) {
    done = ensureMonthRange(pool, at, at).then(() => undefined);
    ensured.set(month, done);
    done.catch(() => ensured.delete(month));
  }
  return done;
}

export interface UpkeepResult {
  made: number;
  dropped: number;
}

/** whole months kept before the current one, per retention class (0 = keep every month) */
export type Retention = Record<RetentionClass, number>;

/**
 * Months ahead made, months past retention dropped (a retention of 0 keeps every month). A month
 * is dropped once all of it lies more than `retention` whole months before the current month:
 * with 24, on any day of November 2026 the oldest month kept is November 2024.
 */
export async function upkeepMonthPartitions(
  client: Queryable,
  now: Date,
  retention: Retention,
): Promise<UpkeepResult> {
  const ahead = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + MONTHS_AHEAD, 1));
  const made = await ensureMonthRange(client, now, ahead);
  let dropped = 0;
  for (const { table, retention: kind } of PARTITIONED_SERIES) {
    const months = retention[kind];
    if (months <= 0) continue;
    const keepFrom = dayOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1)));
    const { rows } = await client.query<{ dropped: number }>(
      'SELECT drop_month_partitions_before($1::regclass, $2::date) AS dropped',
      [table, keepFrom],
    );
    dropped += rows[0]!.dropped;
  }
  return { made, dropped };
}

/** How often a process runs the upkeep (its first sweep runs it at once). */
export const UPKEEP_INTERVAL_MS = 3_600_000;

/**
 * The upkeep as a worker sweep, at most once per UPKEEP_INTERVAL_MS per process. Each table's
 * months are made or dropped in a statement of their own (autocommit), so the locks one takes on
 * the tables its foreign keys reference are let go before the next; a maker that cannot get one
 * within its lock_timeout (migration partitioned_signal_history) fails, and the sweep tries again
 * at its next interval.
 */
export function monthPartitionUpkeep(options: {
  retention: Retention;
  clock: () => Date;
  logger: Logger;
}) {
  const log = options.logger.child({ component: 'month-partitions' });
  let lastRun = -Infinity;
  return async (pool: pg.Pool): Promise<void> => {
    if (Date.now() - lastRun < UPKEEP_INTERVAL_MS) return;
    lastRun = Date.now();
    try {
      const result = await upkeepMonthPartitions(pool, options.clock(), options.retention);
      if (result.made || result.dropped)
        log.info(result, 'history month partitions made ahead and dropped past retention');
    } catch (error) {
      lastRun = -Infinity;
      throw error;
    }
  };
}
