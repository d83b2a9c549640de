// The crawl bench's view of its database: which stores of the farm are in the catalog, making a
// run's stores due at once, and what the workers did (observation_log), read the way a person
// would check it: every store due at the start observed once (missed and duplicated count the
// exceptions), the durations, the pace.
import pg from 'pg';
import { queueTick } from '../../src/crawler/catalog-tick.ts';
import { inTransaction } from '../../src/platform/database/transaction.ts';
import { upsertApps } from '../../src/seed/catalog-sql.ts';
import { createSampler } from '../../src/seed/reference-data.ts';

export interface RunProgress {
  /** run stores with at least one observation since the run began */
  observed: number;
  /** observations of run stores beyond the first of each */
  duplicated: number;
  /** the latest end of an observation of the run */
  lastFinishedAt: Date | null;
}

export interface RunFigures extends RunProgress {
  missed: number;
  p50ObservationMs: number | null;
  p99ObservationMs: number | null;
  outcomes: Record<string, number>;
  /** change records the run's observations wrote (prices, SKUs, apps, themes), and the stores they were about */
  changesRecorded: number;
  storesChanged: number;
  /** app install periods the run's observations opened (an install seen happening) and closed (an uninstall) */
  appPeriodsOpened: number;
  appPeriodsClosed: number;
}

export class CrawlDatabase {
  private constructor(readonly pool: pg.Pool) {}

  static async open(url: string): Promise<CrawlDatabase> {
    const admin = new URL(url);
    const name = admin.pathname.slice(1);
    admin.pathname = '/postgres';
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
        name,
      ]);
      if (rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    } finally {
      await client.end();
    }
    return new CrawlDatabase(new pg.Pool({ connectionString: url, max: 4 }));
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  /**
   * The app catalog of data/apps.json, which app detection matches homepages against. A catalog that
   * was never seeded has none (the seed loads it), and then no observation detects an app.
   */
  async loadAppCatalog(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await upsertApps(client, createSampler());
    } finally {
      client.release();
    }
  }

  /** The farm's stores on the crawler's schedule, by id (their domain ends in the farm's domain). */
  async scheduledStores(farmDomain: string): Promise<number[]> {
    const { rows } = await this.pool.query<{ id: number }>(
      `SELECT s.id FROM stores s JOIN observation_schedule o ON o.store_id = s.id WHERE s.domain LIKE '%.' || $1 ORDER BY s.id`,
      [farmDomain],
    );
    return rows.map((r) => r.id);
  }

  /** Candidates being validated or due for it (a storefront that was busy or down is retried later: not waited for). */
  async candidatesOpen(): Promise<number> {
    const {
      rows: [row],
    } = await this.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM catalog_candidates WHERE status = 'queued' OR (status = 'pending' AND next_at <= now())`,
    );
    return row!.n;
  }

  /** Nothing is due but the run's stores, which are due now, and a tick is queued; returns the run's start (the database's clock). */
  async makeDue(storeIds: readonly number[]): Promise<Date> {
    return inTransaction(this.pool, async (client) => {
      await client.query(
        `UPDATE observation_schedule SET next_at = now() + interval '30 days' WHERE store_id <> ALL($1::int[])`,
        [storeIds],
      );
      const {
        rows: [row],
      } = await client.query<{ now: Date }>(
        `UPDATE observation_schedule SET next_at = now(), queued_at = NULL WHERE store_id = ANY($1::int[]) RETURNING now() AS now`,
        [storeIds],
      );
      // the tick tops the queue up at once (an idle scheduler looks again within a minute by itself)
      await queueTick(client);
      return row?.now ?? new Date();
    });
  }

  /** Nothing due: the bench's workers start idle. */
  async nothingDue(): Promise<void> {
    await this.pool.query(
      `UPDATE observation_schedule SET next_at = now() + interval '30 days', queued_at = NULL`,
    );
  }

  async workersSeen(since: Date): Promise<number> {
    const {
      rows: [row],
    } = await this.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM crawler_workers WHERE seen_at >= $1',
      [since],
    );
    return row!.n;
  }

  async progress(storeIds: readonly number[], since: Date): Promise<RunProgress> {
    const {
      rows: [row],
    } = await this.pool.query<{ observed: number; rows: number; last: Date | null }>(
      `SELECT count(DISTINCT store_id)::int AS observed, count(*)::int AS rows, max(finished_at) AS last
         FROM observation_log WHERE store_id = ANY($1::int[]) AND started_at >= $2`,
      [storeIds, since],
    );
    return {
      observed: row!.observed,
      duplicated: row!.rows - row!.observed,
      lastFinishedAt: row!.last,
    };
  }

  /** Observations claimed or running (none once a run has drained). */
  async inFlight(): Promise<number> {
    const {
      rows: [row],
    } = await this.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM observation_schedule WHERE queued_at IS NOT NULL',
    );
    return row!.n;
  }

  async figures(storeIds: readonly number[], since: Date): Promise<RunFigures> {
    const progress = await this.progress(storeIds, since);
    const {
      rows: [durations],
    } = await this.pool.query<{ p50: number | null; p99: number | null }>(
      `SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50, percentile_disc(0.99) WITHIN GROUP (ORDER BY duration_ms) AS p99
         FROM observation_log WHERE store_id = ANY($1::int[]) AND started_at >= $2`,
      [storeIds, since],
    );
    const {
      rows: [changes],
    } = await this.pool.query<{ recorded: number; stores: number }>(
      `SELECT coalesce(sum(changes), 0)::int AS recorded, count(DISTINCT store_id) FILTER (WHERE changes > 0)::int AS stores
         FROM observation_log WHERE store_id = ANY($1::int[]) AND started_at >= $2`,
      [storeIds, since],
    );
    const {
      rows: [periods],
    } = await this.pool.query<{ opened: number; closed: number }>(
      `SELECT count(*) FILTER (WHERE seen_installing AND installed_at >= $2)::int AS opened,
              count(*) FILTER (WHERE uninstalled_at >= $2)::int AS closed
         FROM store_app_periods WHERE store_id = ANY($1::int[])`,
      [storeIds, since],
    );
    const { rows: outcomes } = await this.pool.query<{ outcome: string; n: number }>(
      `SELECT outcome, count(*)::int AS n FROM observation_log WHERE store_id = ANY($1::int[]) AND started_at >= $2 GROUP BY outcome ORDER BY n DESC`,
      [storeIds, since],
    );
    return {
      ...progress,
      missed: storeIds.length - progress.observed,
      p50ObservationMs: durations!.p50,
      p99ObservationMs: durations!.p99,
      outcomes: Object.fromEntries(outcomes.map((o) => [o.outcome, o.n])),
      changesRecorded: changes!.recorded,
      storesChanged: changes!.stores,
      appPeriodsOpened: periods!.opened,
      appPeriodsClosed: periods!.closed,
    };
  }
}
