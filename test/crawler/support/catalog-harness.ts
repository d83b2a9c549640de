// The catalog tests' harness: the scrape harness (gateway, job worker with the catalog's scheduler,
// fixture storefronts on loopback through EGRESS_OVERRIDES, a clock the test moves) plus what the
// tests ask of the catalog: offer domains, run a tick now, and wait for observations.
import type pg from 'pg';
import { queueTick } from '../../../src/crawler/catalog-tick.ts';
import { OBSERVE_TASK, TICK_TASK } from '../../../src/crawler/work-queue.ts';
import { JOB_SCHEMA } from '../../../src/platform/jobs/job-queue.ts';
import { offerCandidates } from '../../../src/storefront/catalog-candidates.sql.ts';
import {
  startFixtureStorefronts,
  type FixtureStorefronts,
} from '../../scrapes/support/fixture-storefronts.ts';
import {
  startScrapeHarness,
  type HarnessOptions,
  type ScrapeHarness,
} from '../../scrapes/support/scrape-harness.ts';

export interface CatalogHarness extends ScrapeHarness {
  fixtures: FixtureStorefronts;
  pool: pg.Pool;
  /** offers domains as imported candidates and runs a tick */
  offer(domains: string[]): Promise<void>;
  tick(): Promise<void>;
  /** moves the clock by `ms` and runs a tick (what was due by then is claimed) */
  advance(ms: number): Promise<void>;
  /** waits until `sql` (on the test database) returns a row */
  waitForRow<R extends object>(sql: string, values?: unknown[], timeoutMs?: number): Promise<R>;
  /** the observation_log lines of a domain, oldest first */
  logOf(domain: string): Promise<Array<{ trigger: string; outcome: string; changes: number }>>;
  /** the id of the newest observation_log line (0 when none) */
  lastLogId(): Promise<number>;
  /** waits for the domain's first observation_log line after `afterId` */
  nextObservation(domain: string, afterId: number): Promise<LogLine>;
  /**
   * waits until the catalog's queue has nothing left to do now: no observation queued, claimed or
   * running, and no tick due or running (the next one waits in the future). What a tick would have
   * done has been done, so a test can then assert that nothing (more) happened.
   */
  settled(): Promise<void>;
}

export interface LogLine {
  trigger: string;
  outcome: string;
  changes: number;
}

export const DAY_MS = 86_400_000;

export async function startCatalogHarness(
  options: HarnessOptions & { env?: Record<string, string> } = {},
): Promise<CatalogHarness> {
  const fixtures = await startFixtureStorefronts();
  const harness = await startScrapeHarness({
    ...options,
    env: {
      EGRESS_OVERRIDES: fixtures.overrides,
      CATALOG_CONCURRENCY: '4',
      CATALOG_WORKER_CONCURRENCY: '2',
      ...options.env,
    },
  });
  const pool = harness.services.db.pool;
  const tick = () => queueTick(pool);
  const waitForRow = async <R extends object>(
    sql: string,
    values: unknown[] = [],
    timeoutMs = 20_000,
  ): Promise<R> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await pool.query(sql, values);
      if (rows[0]) return rows[0] as R;
      if (Date.now() > deadline) throw new Error(`no row for ${sql} ${JSON.stringify(values)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const logOf = async (domain: string) =>
    (
      await pool.query<{ trigger: string; outcome: string; changes: number }>(
        'SELECT trigger, outcome, changes FROM observation_log WHERE domain = $1 ORDER BY id',
        [domain],
      )
    ).rows;
  return {
    ...harness,
    fixtures,
    pool,
    tick,
    async offer(domains) {
      await offerCandidates(pool, domains, {
        source: 'import',
        foundOn: 'test',
        now: harness.clock.now(),
      });
      await tick();
    },
    async advance(ms) {
      harness.clock.advance(ms);
      await tick();
    },
    waitForRow,
    logOf,
    async lastLogId() {
      const {
        rows: [row],
      } = await pool.query<{ id: string | null }>(
        'SELECT max(id)::text AS id FROM observation_log',
      );
      return Number(row?.id ?? 0);
    },
    async nextObservation(domain, afterId) {
      return waitForRow<LogLine & { id: string }>(
        'SELECT id::text, trigger, outcome, changes FROM observation_log WHERE domain = $1 AND id > $2 ORDER BY id LIMIT 1',
        [domain, afterId],
      ).then(({ id: _, ...line }) => line);
    },
    async settled() {
      await waitForRow(
        `SELECT 1 AS settled
          WHERE NOT EXISTS (SELECT 1 FROM ${JOB_SCHEMA}.jobs
                             WHERE task_identifier = $1 OR (task_identifier = $2 AND (locked_at IS NOT NULL OR run_at <= now())))
            AND NOT EXISTS (SELECT 1 FROM observation_schedule WHERE queued_at IS NOT NULL)`,
        [OBSERVE_TASK, TICK_TASK],
      );
    },
    async close() {
      await harness.close();
      await fixtures.close();
    },
  };
}
