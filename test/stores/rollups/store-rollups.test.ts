// The pre-computed whole-catalog rollups: unfiltered grouped rows and the analytics overview read
// them while fresh and give exactly the live figures; filtered requests and rollups past their
// documented freshness use the live query; the worker's sweep queues the refresh and the seeder
// builds them with the load.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  catalogTotals,
  countryStats,
  verticalStats,
} from '../../../src/analytics/analytics.sql.ts';
import { createLogger } from '../../../src/platform/logger.ts';
import { migrateJobQueue } from '../../../src/platform/jobs/job-queue.ts';
import { startJobWorker } from '../../../src/platform/jobs/job-worker.ts';
import { rollupJobs } from '../../../src/stores/rollups/rollup-jobs.ts';
import {
  buildStoreRollups,
  ROLLUP_MAX_AGE_MINUTES,
} from '../../../src/stores/rollups/store-rollups.ts';
import { seedCatalog } from '../../../src/seed/seed-catalog.ts';
import {
  GROUP_METRICS,
  GROUP_SORTS,
  STORE_GROUPINGS,
  storeGroups,
  type GroupQuery,
} from '../../../src/stores/store-groups.sql.ts';
import { loadCatalogFixture } from '../../support/catalog-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import { pollUntil } from '../../support/poll.ts';
import { createTestServices, type CatalogTestServices } from '../../support/test-services.ts';

let t: CatalogTestServices;
let pool: pg.Pool;

beforeAll(async () => {
  t = await createTestServices();
  pool = t.services.db.pool;
  await loadCatalogFixture(pool, t.services.legacy);
});
afterAll(() => t?.close());

const WINDOW = { offset: 0, limit: 100 };

/** every unfiltered grouping the API takes: each dimension alone and each ordered pair, every metric and sort */
const GROUP_QUERIES: GroupQuery[] = STORE_GROUPINGS.flatMap((groupBy) =>
  [null, ...STORE_GROUPINGS.filter((g) => g !== groupBy)].flatMap((groupBy2) =>
    GROUP_METRICS.flatMap((metric) =>
      GROUP_SORTS.map((sort) => ({ groupBy, groupBy2, metric, sort })),
    ),
  ),
);

const allGroups = () => Promise.all(GROUP_QUERIES.map((q) => storeGroups(pool, q, WINDOW)));
/** the overview's figures; when they are the rollups' they also say when they were computed, which the live ones cannot */
const analytics = async () => {
  const { computedAt: _, ...totals } = await catalogTotals(pool);
  return { totals, verticals: await verticalStats(pool), countries: await countryStats(pool) };
};

async function refresh(db: pg.Pool = pool) {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const build = await buildStoreRollups(client);
    await client.query('COMMIT');
    return build;
  } finally {
    client.release();
  }
}

/** a change to the catalog the rollups have not seen: the biggest US store doubles its revenue */
const changeCatalog = (db: pg.Pool = pool) =>
  db.query(
    `UPDATE stores SET revenue_high_usd = revenue_high_usd * 2 WHERE domain = 'acme-apparel.com'`,
  );

describe('store rollups', () => {
  it('serve every unfiltered grouping, metric and sort and the analytics figures exactly as the live queries compute them', async () => {
    const liveGroups = await allGroups();
    const liveAnalytics = await analytics();
    const build = await refresh();
    expect(build.groups).toBeGreaterThan(0);

    expect((await catalogTotals(pool)).computedAt).toEqual(build.refreshedAt);

    await changeCatalog();
    // the rollups are what is served: the change is not in them yet, and they equal the live figures before it
    expect(await allGroups()).toEqual(liveGroups);
    expect(await analytics()).toEqual(liveAnalytics);
    // a filtered request still runs live and sees the change
    const us = await storeGroups(
      pool,
      { filter: { countryCode: 'us' }, groupBy: 'country', metric: 'max', sort: 'stores' },
      WINDOW,
    );
    expect(us.rows[0]!.monthlyRevenueUsd).toBe(160_000);

    // after the next refresh the rollups carry the change, and still equal the live figures
    await refresh();
    const country = { groupBy: 'country', metric: 'max', sort: 'stores' } as const;
    expect(
      (await storeGroups(pool, country, WINDOW)).rows.find((r) => r.key === 'US')!
        .monthlyRevenueUsd,
    ).toBe(160_000);
    await pool.query(`TRUNCATE store_rollups, store_rollup_refreshes`);
    const liveAfter = await allGroups();
    const liveAnalyticsAfter = await analytics();
    await refresh();
    expect(await allGroups()).toEqual(liveAfter);
    expect(await analytics()).toEqual(liveAnalyticsAfter);
  });

  it(`are never served once older than ${ROLLUP_MAX_AGE_MINUTES} minutes: the live query answers instead`, async () => {
    await refresh();
    const served = await storeGroups(
      pool,
      { groupBy: 'vertical', metric: 'mean', sort: 'revenue' },
      WINDOW,
    );
    await pool.query(
      `UPDATE stores SET monthly_visits = monthly_visits + 1000 WHERE vertical = 'Home'`,
    );
    expect(
      await storeGroups(pool, { groupBy: 'vertical', metric: 'mean', sort: 'revenue' }, WINDOW),
    ).toEqual(served);

    await pool.query(
      `UPDATE store_rollup_refreshes SET refreshed_at = now() - make_interval(mins => $1::int) - interval '1 second'`,
      [ROLLUP_MAX_AGE_MINUTES],
    );
    const live = await storeGroups(
      pool,
      { groupBy: 'vertical', metric: 'mean', sort: 'revenue' },
      WINDOW,
    );
    const home = (r: typeof live) => r.rows.find((g) => g.key === 'Home')!.monthlyVisits;
    expect(home(live)).toBe(home(served) + 1000);
    const totals = await catalogTotals(pool);
    const { rows } = await pool.query<{ avg: number }>(
      'SELECT avg(monthly_visits)::float8 AS avg FROM stores',
    );
    expect(totals.averageMonthlyVisits).toBe(rows[0]!.avg);
  });
});

describe('store rollups refresh', () => {
  it('is queued by the worker sweep when the rollups are missing or due, and runs once', async () => {
    await pool.query(`TRUNCATE store_rollups, store_rollup_refreshes`);
    await migrateJobQueue(pool);
    const rollups = rollupJobs({ logger: createLogger('silent') });
    let sweeps = 0;
    const sweepsCounted = {
      ...rollups,
      sweep: async (db: pg.Pool) => {
        await rollups.sweep!(db);
        sweeps++;
      },
    };
    const worker = await startJobWorker({
      databaseUrl: t.services.db.url,
      logger: createLogger('silent'),
      concurrency: 1,
      features: [sweepsCounted],
      sweepIntervalMs: 100,
      pollIntervalMs: 100,
    });
    try {
      const deadline = Date.now() + 15_000;
      let refreshes: Array<{ refreshed_at: Date }> = [];
      while (Date.now() < deadline) {
        ({ rows: refreshes } = await pool.query(`SELECT refreshed_at FROM store_rollup_refreshes`));
        if (refreshes.length) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(refreshes).toHaveLength(1);
      const first = refreshes[0]!.refreshed_at.getTime();
      // fresh rollups are left alone by the following sweeps (each would queue a refresh if due)
      const sweptBefore = sweeps;
      await pollUntil(
        async () => sweeps,
        (n) => n >= sweptBefore + 3,
        15_000,
        50,
      );
      await pollUntil(
        async () =>
          (await pool.query(`SELECT count(*)::int AS n FROM graphile_worker.jobs`)).rows[0]!.n,
        (n) => n === 0,
        15_000,
        50,
      );
      const { rows: later } = await pool.query<{ refreshed_at: Date }>(
        `SELECT refreshed_at FROM store_rollup_refreshes`,
      );
      expect(later[0]!.refreshed_at.getTime()).toBe(first);
      const { rows: stores } = await pool.query<{ stores: number }>(
        `SELECT stores FROM store_rollups WHERE dimensions = ''`,
      );
      expect(stores).toEqual([{ stores: 12 }]);
    } finally {
      await worker.stop();
    }
  });
});

describe('seeding', () => {
  let seeded: TestDatabase;
  let seededPool: pg.Pool;
  beforeAll(async () => {
    seeded = await createTestDatabase();
    seededPool = new pg.Pool({ connectionString: seeded.url, max: 2 });
  });
  afterAll(async () => {
    await seededPool?.end();
    await seeded?.drop();
  });

  it('builds the rollups in the same transaction as the load', async () => {
    const report = await seedCatalog({ pool: seededPool, stores: 40, seed: 7 });
    expect(report.timingsMs.rollups).toBeGreaterThanOrEqual(0);
    const { rows } = await seededPool.query<{ stores: number; fresh: boolean }>(
      `SELECT r.stores, f.refreshed_at > now() - interval '1 minute' AS fresh
         FROM store_rollups r, store_rollup_refreshes f WHERE r.dimensions = ''`,
    );
    expect(rows).toEqual([{ stores: 40, fresh: true }]);
    const { rows: countries } = await seededPool.query<{ n: number }>(
      `SELECT count(DISTINCT country_code)::int AS n FROM stores`,
    );
    const { rows: rolled } = await seededPool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM store_rollups WHERE dimensions = 'country'`,
    );
    // one group per country, plus one for stores without a country if there are any
    const { rows: unknown } = await seededPool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM stores WHERE country_code IS NULL`,
    );
    expect(rolled[0]!.n).toBe(countries[0]!.n + (unknown[0]!.n > 0 ? 1 : 0));
  });
});
