// The app trend rollups: rebuilt from store_app_periods they give, month by month, the counts worked
// out by hand for a small catalog (installs, stores newly observed running the app, uninstalls, the
// install base and its share of the stores observed, per whole catalog, vertical, country and both);
// kept by the observation writer as observations arrive, they equal a rebuild.
import { storefrontObservation } from '../support/storefront-observation.ts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildAppTrendRollups } from '../../src/apps/app-trend-rollups.ts';
import { readAppRanking, readAppTrend } from '../../src/apps/app-trend.sql.ts';
import { loadReferenceData } from '../../src/seed/reference-data.ts';
import { seedCatalog } from '../../src/seed/seed-catalog.ts';
import { writeObservation } from '../../src/storefront/catalog-writer.ts';
import type { StorefrontObservation } from '../../src/storefront/read-storefront.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let db: TestDatabase;
let pool: pg.Pool;
const app: Record<string, number> = {};
const store: Record<string, number> = {};

const DAY_MS = 86_400_000;
const daysAgo = (n: number) => new Date((Math.floor(Date.now() / DAY_MS) - n) * DAY_MS);

async function addStore(key: string, firstSeenAt: Date, vertical: string | null, country: string) {
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO stores (domain, name, vertical, country_code, first_seen_at) VALUES ($1, $1, $2, $3, $4) RETURNING id`,
    [`${key}.trend.test`, vertical, country, firstSeenAt],
  );
  store[key] = rows[0]!.id;
}

async function addPeriod(
  appKey: string,
  storeKey: string,
  installedAt: Date,
  seenInstalling: boolean,
  uninstalledAt: Date | null = null,
) {
  await pool.query(
    `INSERT INTO store_app_periods (store_id, app_id, installed_at, uninstalled_at, seen_installing) VALUES ($1, $2, $3, $4, $5)`,
    [store[storeKey], app[appKey], installedAt, uninstalledAt, seenInstalling],
  );
}

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  const { rows } = await pool.query<{ id: number; slug: string }>(
    `INSERT INTO apps (slug, name, category) VALUES
       ('trend-a', 'Trend A', 'Fixture trend'), ('trend-b', 'Trend B', 'Fixture trend'),
       ('rank-c', 'Rank C', 'Fixture ranking'), ('rank-d', 'Rank D', 'Fixture ranking'),
       ('rank-e', 'Rank E', 'Fixture ranking'), ('live-f', 'Live F', null), ('live-g', 'Live G', null)
     RETURNING id, slug`,
  );
  for (const r of rows) app[r.slug] = r.id;

  // months of 2026, worked out below
  const d = (text: string) => new Date(`${text}T12:00:00Z`);
  await addStore('s1', d('2026-01-10'), 'Apparel', 'US');
  await addStore('s2', d('2026-01-20'), 'Apparel', 'DE');
  await addStore('s3', d('2026-02-05'), 'Beauty', 'US');
  await addStore('s4', d('2026-03-15'), null, 'US');
  await addPeriod('trend-a', 's1', d('2026-01-10'), false, d('2026-03-02')); // already running at first sight
  await addPeriod('trend-a', 's2', d('2026-02-11'), true);
  await addPeriod('trend-a', 's3', d('2026-02-05'), false);
  await addPeriod('trend-a', 's4', d('2026-03-20'), true, d('2026-03-28'));
  await addPeriod('trend-a', 's1', d('2026-04-01'), true); // back
  await addPeriod('trend-b', 's3', d('2026-03-01'), true);

  // near today, for the 90-day window of the ranking
  for (const key of ['s5', 's6', 's7']) await addStore(key, daysAgo(200), 'Home', 'FR');
  await addPeriod('rank-c', 's5', daysAgo(100), true);
  await addPeriod('rank-c', 's6', daysAgo(10), true);
  await addPeriod('rank-c', 's7', daysAgo(120), true, daysAgo(5));
  for (const key of ['s5', 's6', 's7']) await addPeriod('rank-d', key, daysAgo(30), true);

  await rebuildAppTrendRollups(pool);
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const month = (
  m: string,
  installs: number,
  newlyObserved: number,
  uninstalls: number,
  installBase: number,
  observedStores: number,
) => ({
  month: m,
  installs,
  newlyObserved,
  uninstalls,
  net: installs - uninstalls,
  installBase,
  observedStores,
  share: observedStores > 0 ? installBase / observedStores : null,
});

describe('app trend, rebuilt from the periods', () => {
  const now = new Date('2026-04-15T08:00:00Z');

  it('counts each month of the whole catalog, oldest first', async () => {
    expect(await readAppTrend(pool, app['trend-a']!, { months: 6 }, now)).toEqual([
      month('2025-11-01', 0, 0, 0, 0, 0),
      month('2025-12-01', 0, 0, 0, 0, 0),
      month('2026-01-01', 0, 1, 0, 1, 2),
      month('2026-02-01', 1, 1, 0, 3, 3),
      month('2026-03-01', 1, 0, 2, 2, 4),
      month('2026-04-01', 1, 0, 0, 3, 4),
    ]);
  });

  it('opens a shorter window with the base and stores of the months before it', async () => {
    expect(await readAppTrend(pool, app['trend-a']!, { months: 2 }, now)).toEqual([
      month('2026-03-01', 1, 0, 2, 2, 4),
      month('2026-04-01', 1, 0, 0, 3, 4),
    ]);
  });

  it('narrows by vertical (case-insensitive), country, and both', async () => {
    expect(
      await readAppTrend(pool, app['trend-a']!, { months: 4, vertical: 'APPAREL' }, now),
    ).toEqual([
      month('2026-01-01', 0, 1, 0, 1, 2),
      month('2026-02-01', 1, 0, 0, 2, 2),
      month('2026-03-01', 0, 0, 1, 1, 2),
      month('2026-04-01', 1, 0, 0, 2, 2),
    ]);
    // s4 (no vertical) counts here, in its country
    expect(
      await readAppTrend(pool, app['trend-a']!, { months: 4, countryCode: 'us' }, now),
    ).toEqual([
      month('2026-01-01', 0, 1, 0, 1, 1),
      month('2026-02-01', 0, 1, 0, 2, 2),
      month('2026-03-01', 1, 0, 2, 1, 3),
      month('2026-04-01', 1, 0, 0, 2, 3),
    ]);
    expect(
      await readAppTrend(
        pool,
        app['trend-a']!,
        { months: 4, vertical: 'apparel', countryCode: 'US' },
        now,
      ),
    ).toEqual([
      month('2026-01-01', 0, 1, 0, 1, 1),
      month('2026-02-01', 0, 0, 0, 1, 1),
      month('2026-03-01', 0, 0, 1, 0, 1),
      month('2026-04-01', 1, 0, 0, 1, 1),
    ]);
    expect(await readAppTrend(pool, app['trend-a']!, { months: 1, vertical: 'Toys' }, now)).toEqual(
      [month('2026-04-01', 0, 0, 0, 0, 0)],
    );
  });

  it('keeps base(m) = base(m-1) + installs + newlyObserved - uninstalls', async () => {
    const months = await readAppTrend(pool, app['trend-a']!, { months: 24 }, now);
    let base = 0;
    for (const m of months) {
      base += m.installs + m.newlyObserved - m.uninstalls;
      expect(m.installBase).toBe(base);
    }
  });
});

describe('app ranking, rebuilt from the periods', () => {
  it('ranks a category by install base, with share and 90-day net change', async () => {
    const stores = 7;
    const ranking = await readAppRanking(pool, 'fixture RANKING');
    expect(
      ranking.map((r) => ({
        slug: r.app.slug,
        installBase: r.installBase,
        share: r.share,
        installs90d: r.installs90d,
        uninstalls90d: r.uninstalls90d,
        netChange90d: r.netChange90d,
      })),
    ).toEqual([
      {
        slug: 'rank-d',
        installBase: 3,
        share: 3 / stores,
        installs90d: 3,
        uninstalls90d: 0,
        netChange90d: 3,
      },
      {
        slug: 'rank-c',
        installBase: 2,
        share: 2 / stores,
        installs90d: 1,
        uninstalls90d: 1,
        netChange90d: 0,
      },
      {
        slug: 'rank-e',
        installBase: 0,
        share: 0,
        installs90d: 0,
        uninstalls90d: 0,
        netChange90d: 0,
      },
    ]);
  });

  it('has no apps for an unknown category', async () => {
    expect(await readAppRanking(pool, 'No such category')).toEqual([]);
  });
});

describe('app trend rollups kept by the observation writer', () => {
  const observation = (
    domain: string,
    countryCode: string,
    slugs: string[],
  ): StorefrontObservation =>
    storefrontObservation({
      domain,
      countryCode,
      apps: slugs.map((slug) => ({
        id: app[slug]!,
        slug,
        name: slug,
        category: null,
        patterns: [],
      })),
    });

  async function observe(o: StorefrontObservation, at: Date) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await writeObservation(client, o, {
        now: at,
        reference: loadReferenceData(),
        legacyId: o.domain.startsWith('live1') ? 'b'.repeat(24) : 'c'.repeat(24),
      });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  }

  const snapshot = async () => ({
    months: (
      await pool.query(
        `SELECT app_id, vertical, country_code, month::text, installs, newly_observed, uninstalls FROM app_trend_months
          WHERE installs <> 0 OR newly_observed <> 0 OR uninstalls <> 0 ORDER BY 1, 2, 3, 4`,
      )
    ).rows,
    days: (
      await pool.query(
        `SELECT app_id, day::text, installs, newly_observed, uninstalls FROM app_install_days
          WHERE installs <> 0 OR newly_observed <> 0 OR uninstalls <> 0 ORDER BY 1, 2`,
      )
    ).rows,
    stores: (
      await pool.query(
        `SELECT vertical, country_code, month::text, stores FROM store_observed_months WHERE stores <> 0 ORDER BY 1, 2, 3`,
      )
    ).rows,
  });

  it('counts opened and closed periods, new stores and a change of country as a rebuild does', async () => {
    // history tables hold partitions around today only: observations a day apart, ending yesterday
    await observe(observation('live1.trend.test', 'US', ['live-f']), daysAgo(6)); // F already running
    await observe(observation('live2.trend.test', 'US', []), daysAgo(6));
    await observe(observation('live1.trend.test', 'US', ['live-f', 'live-g']), daysAgo(5)); // G installed
    await observe(observation('live2.trend.test', 'US', ['live-f']), daysAgo(5)); // F installed
    await observe(observation('live1.trend.test', 'US', ['live-g']), daysAgo(4)); // F dropped
    await observe(observation('live2.trend.test', 'CA', ['live-f']), daysAgo(3)); // moved to Canada
    await observe(observation('live1.trend.test', 'US', ['live-f', 'live-g']), daysAgo(2)); // F back
    await observe(observation('live1.trend.test', 'US', ['live-f', 'live-g']), daysAgo(1)); // nothing new

    // F over the whole catalog: 1 newly observed, 2 installs, 1 uninstall; base 2 (both stores)
    const months = await readAppTrend(pool, app['live-f']!, { months: 2 });
    const sum = (key: 'installs' | 'newlyObserved' | 'uninstalls') =>
      months.reduce((total, m) => total + m[key], 0);
    expect([sum('installs'), sum('newlyObserved'), sum('uninstalls')]).toEqual([2, 1, 1]);
    expect(months.at(-1)!.installBase).toBe(2);
    // in the US only live1 runs it now; live2's periods moved to CA with it
    expect(
      (await readAppTrend(pool, app['live-f']!, { months: 1, countryCode: 'US' })).at(-1),
    ).toMatchObject({ installBase: 1 });
    const canada = await readAppTrend(pool, app['live-f']!, { months: 2, countryCode: 'CA' });
    expect(canada.at(-1)).toMatchObject({ installBase: 1, observedStores: 1, share: 1 });
    expect(canada.reduce((total, m) => total + m.installs, 0)).toBe(1);

    const incremental = await snapshot();
    await rebuildAppTrendRollups(pool);
    expect(incremental).toEqual(await snapshot());
  });

  it('loses no count when observations of different stores add to the same rows at once', async () => {
    const stores = Array.from({ length: 8 }, (_, i) => `parallel${i}.trend.test`);
    const observeAll = (slugs: (i: number) => string[], at: Date) =>
      Promise.all(
        stores.map(async (domain, i) => {
          const client = await parallel.connect();
          try {
            await client.query('BEGIN');
            await writeObservation(client, observation(domain, i % 2 ? 'US' : 'GB', slugs(i)), {
              now: at,
              reference: loadReferenceData(),
              legacyId: i.toString(16).padStart(24, 'd'),
            });
            await client.query('COMMIT');
          } finally {
            client.release();
          }
        }),
      );
    const parallel = new pg.Pool({ connectionString: db.url, max: 4 });
    try {
      const before = (await readAppTrend(pool, app['live-g']!, { months: 1 })).at(-1)!;
      await observeAll(() => ['live-f'], daysAgo(3)); // all first seen running F
      await observeAll((i) => (i < 6 ? ['live-f', 'live-g'] : []), daysAgo(2)); // 6 install G, 2 drop F
      const after = (await readAppTrend(pool, app['live-g']!, { months: 1 })).at(-1)!;
      expect(after.installBase - before.installBase).toBe(6);
      const incremental = await snapshot();
      await rebuildAppTrendRollups(pool);
      expect(incremental).toEqual(await snapshot());
    } finally {
      await parallel.end();
    }
  });
});

describe('app trend rollups after a seed', () => {
  it('count every seeded store in the month it was first seen, by vertical and country too', async () => {
    const seeded = await createTestDatabase();
    const seededPool = new pg.Pool({ connectionString: seeded.url, max: 2 });
    try {
      await seedCatalog({ pool: seededPool, stores: 60, seed: 3, today: new Date() });
      const { rows } = await seededPool.query<{ rollup: number; stores: number }>(
        `SELECT (SELECT sum(stores) FROM store_observed_months WHERE vertical = '' AND country_code = '')::int AS rollup,
                (SELECT count(*) FROM stores)::int AS stores`,
      );
      expect(rows[0]).toEqual({ rollup: 60, stores: 60 });
      const { rows: byCountry } = await seededPool.query(
        `SELECT r.country_code, r.stores FROM (SELECT country_code, sum(stores)::int AS stores FROM store_observed_months
            WHERE vertical = '' AND country_code <> '' GROUP BY 1) r
          FULL JOIN (SELECT country_code::text, count(*)::int AS stores FROM stores WHERE country_code IS NOT NULL GROUP BY 1) s
            ON s.country_code = r.country_code
         WHERE r.stores IS DISTINCT FROM s.stores`,
      );
      expect(byCountry).toEqual([]);
    } finally {
      await seededPool.end();
      await seeded.drop();
    }
  });
});
