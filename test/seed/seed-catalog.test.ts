import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LegacyStore, LegacySummary } from '../../src/platform/legacy/port.ts';
import { loadReferenceData } from '../../src/seed/reference-data.ts';
import {
  countCatalogStores,
  seedCatalog,
  SeedRefusedError,
  type SeedReport,
} from '../../src/seed/seed-catalog.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

const today = new Date();

/**
 * every index and constraint of the schema, as PostgreSQL would recreate it, and whether it is
 * valid; those of month partitions follow their table's (the seed may add months)
 */
async function schemaShape(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ def: string }>(`
    SELECT pg_get_indexdef(x.indexrelid) || ' valid=' || x.indisvalid AS def
      FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid
     WHERE t.relnamespace = 'public'::regnamespace AND NOT t.relispartition
    UNION ALL
    SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(c.oid) || ' valid=' || convalidated
      FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
     WHERE connamespace = 'public'::regnamespace AND NOT t.relispartition
    ORDER BY 1`);
  return rows.map((r) => r.def);
}

/** md5 of a table's rows in a fixed order */
async function checksum(pool: pg.Pool, table: string, orderBy: string): Promise<string> {
  const { rows } = await pool.query<{ md5: string }>(
    `SELECT md5(string_agg(t::text, '|' ORDER BY ${orderBy})) AS md5 FROM ${table} t`,
  );
  return rows[0]!.md5;
}

async function tableChecksums(pool: pg.Pool) {
  return {
    stores: await checksum(pool, 'stores', 'id'),
    products: await checksum(pool, 'products', 'id'),
    storeApps: await checksum(pool, 'store_apps', 'store_id, app_id'),
    history: await checksum(pool, 'store_daily_snapshots', 'store_id, day'),
    changes: await checksum(pool, 'change_records', 'id'),
    legacy: await checksum(pool, 'legacy_store_summaries', 'domain'),
  };
}

async function count(pool: pg.Pool, sql: string): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(sql);
  return Number(rows[0]!.n);
}

describe('seedCatalog into a fresh database', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let migratedShape: string[];
  let report: SeedReport;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    migratedShape = await schemaShape(pool);
    // like the service's pool: a request-sized statement timeout the seed must lift for itself
    const servicePool = new pg.Pool({ connectionString: db.url, max: 1, statement_timeout: 200 });
    try {
      report = await seedCatalog({ pool: servicePool, stores: 2000, seed: 7, today });
    } finally {
      await servicePool.end();
    }
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('reports what it wrote, and the tables hold exactly that', async () => {
    expect(report.stores).toBe(2000);
    expect([report.firstStoreId, report.lastStoreId]).toEqual([1, 2000]);
    expect(report.rebuiltIndexes).toBe(true);
    expect(report.databaseBytes).toBeGreaterThan(0);
    for (const [table, rows] of Object.entries(report.rows)) {
      expect(await count(pool, `SELECT count(*) AS n FROM ${table}`), table).toBe(rows);
    }
    expect(report.rows.store_daily_snapshots).toBe(2000 * 180);
    expect(report.legacySummaries).toEqual({
      target: 'postgres:legacy_store_summaries',
      written: 2000,
    });
  });

  it('leaves the stores, their app installs and products vacuumed: the planner counts on index-only scans of each', async () => {
    // a table's visibility map (relallvisible) is set by VACUUM, not by COPY or ANALYZE: without it the
    // planner prices index-only scans as heap reads, and at 1M stores an app + country list took
    // 70-140 ms instead of 15-20 ms until autovacuum came by; a title search's walk of the products'
    // covering index read the heap of every entry (the title family's p99 113 ms, 88 ms once vacuumed)
    const { rows } = await pool.query<{ table: string; allVisible: boolean }>(
      `SELECT relname AS table, relallvisible >= relpages AS "allVisible" FROM pg_class WHERE relname IN ('stores', 'store_apps', 'products') ORDER BY 1`,
    );
    expect(rows).toEqual([
      { table: 'products', allVisible: true },
      { table: 'store_apps', allVisible: true },
      { table: 'stores', allVisible: true },
    ]);
  });

  it('leaves the search vocabularies rewritten and analyzed: their counts were rewritten at every loaded chunk', async () => {
    // left to autovacuum, the store vocabulary of the 1M bench catalog held 805,503 dead rows in 35 MB
    // (its trigram index 56 MB) for 16,428 terms, and reading its nearest terms for a typo took 197 ms
    // instead of about 2; rewritten whole they take 0.7 MB and 1.2 MB
    const { rows } = await pool.query<{ table: string; analyzed: boolean }>(
      `SELECT relname AS table, last_analyze IS NOT NULL AS analyzed
         FROM pg_stat_user_tables WHERE relname IN ('store_search_vocabulary', 'product_search_vocabulary') ORDER BY 1`,
    );
    expect(rows).toEqual([
      { table: 'product_search_vocabulary', analyzed: true },
      { table: 'store_search_vocabulary', analyzed: true },
    ]);
    const { rows: estimated } = await pool.query<{ reltuples: number; terms: number }>(
      `SELECT reltuples::int AS reltuples, (SELECT count(*)::int FROM store_search_vocabulary) AS terms FROM pg_class WHERE oid = 'store_search_vocabulary'::regclass`,
    );
    expect(estimated[0]!.reltuples).toBe(estimated[0]!.terms);
    // rewritten, not only vacuumed: no more pages than its live rows need
    const {
      rows: [pages],
    } = await pool.query<{ heap: number; live: number }>(
      `SELECT pg_relation_size('store_search_vocabulary')::int AS heap,
              (SELECT sum(pg_column_size(v.*))::int FROM store_search_vocabulary v) AS live`,
    );
    expect(pages!.heap).toBeLessThan(pages!.live * 2 + 8192);
  });

  it('leaves exactly the migrated schema: same indexes, keys and foreign keys, all valid', async () => {
    expect(await schemaShape(pool)).toEqual(migratedShape);
  });

  it('keeps modeled figures within their rules', async () => {
    const { rows } = await pool.query(`
      SELECT count(*) FILTER (WHERE revenue_low_usd > revenue_high_usd) AS band,
             count(*) FILTER (WHERE service_rating NOT BETWEEN 0 AND 100) AS rating,
             count(*) FILTER (WHERE service_grade <> CASE WHEN service_rating >= 85 THEN 'A'
                                                          WHEN service_rating >= 70 THEN 'B'
                                                          WHEN service_rating >= 55 THEN 'C'
                                                          WHEN service_rating >= 40 THEN 'D' ELSE 'F' END) AS grade,
             count(*) FILTER (WHERE dropshipper_score NOT BETWEEN 0 AND 1
                                 OR is_dropshipper <> (dropshipper_score >= 0.5)) AS dropshipper,
             count(*) FILTER (WHERE conversion_low_pct > conversion_high_pct) AS conversion
        FROM stores`);
    expect(rows[0]).toEqual({
      band: '0',
      rating: '0',
      grade: '0',
      dropshipper: '0',
      conversion: '0',
    });
  });

  it('gives every store 180 days of history ending today (UTC) at its current values', async () => {
    const { rows } = await pool.query(`
      SELECT count(*) AS stores,
             count(*) FILTER (WHERE h.days <> 180 OR h.first_day <> h.last_day - 179
                                 OR h.last_day <> (now() AT TIME ZONE 'utc')::date) AS bad_window,
             count(*) FILTER (WHERE l.monthly_visits <> s.monthly_visits OR l.revenue_high_usd <> s.revenue_high_usd
                                 OR l.service_rating <> s.service_rating OR l.product_count <> s.product_count) AS bad_end,
             count(*) FILTER (WHERE CASE WHEN m.monthly_visits = 0 THEN s.visits_change_pct IS NOT NULL
                                         ELSE abs(s.visits_change_pct - (s.monthly_visits - m.monthly_visits) * 100.0
                                                  / m.monthly_visits) > 0.006 END) AS bad_movers
        FROM stores s
        JOIN (SELECT store_id, count(*) AS days, min(day) AS first_day, max(day) AS last_day
                FROM store_daily_snapshots GROUP BY store_id) h ON h.store_id = s.id
        JOIN store_daily_snapshots l ON l.store_id = s.id AND l.day = h.last_day
        JOIN store_daily_snapshots m ON m.store_id = s.id AND m.day = h.last_day - 30`);
    expect(rows[0]).toEqual({ stores: '2000', bad_window: '0', bad_end: '0', bad_movers: '0' });
  });

  it('has third-party traffic for some stores only, 24 months each, absent elsewhere', async () => {
    const { rows } = await pool.query<{ months: string; stores: string }>(`
      SELECT COALESCE(t.months, 0) AS months, count(*) AS stores
        FROM stores s LEFT JOIN (SELECT store_id, count(*) AS months FROM traffic_monthly GROUP BY store_id) t
          ON t.store_id = s.id
       GROUP BY 1 ORDER BY 1`);
    expect(rows.map((r) => Number(r.months))).toEqual([0, 24]);
    const covered = Number(rows[1]!.stores) / 2000;
    expect(covered).toBeGreaterThan(0.25);
    expect(covered).toBeLessThan(0.42);
  });

  it('keeps counts consistent: products, best sellers, apps and their install counts', async () => {
    expect(
      await count(
        pool,
        `
        SELECT count(*) AS n FROM stores s
         WHERE product_count <> (SELECT count(*) FROM products p WHERE p.store_id = s.id)
            OR best_seller_count <> (SELECT count(*) FROM products p WHERE p.store_id = s.id AND p.is_best_seller)
            OR app_count <> (SELECT count(*) FROM store_apps a WHERE a.store_id = s.id)`,
      ),
    ).toBe(0);
    expect(
      await count(
        pool,
        `
        SELECT count(*) AS n FROM apps a
         WHERE install_count <> (SELECT count(*) FROM store_apps sa WHERE sa.app_id = a.id)`,
      ),
    ).toBe(0);
    expect(await count(pool, 'SELECT count(*) AS n FROM apps')).toBe(
      loadReferenceData().apps.length,
    );
    expect(
      await count(pool, 'SELECT count(*) AS n FROM apps WHERE install_count > 0'),
    ).toBeGreaterThan(50);
  });

  it('writes app install history: one open period per current install, closed periods that never overlap', async () => {
    // every store_apps row has exactly one open period, first seen when the install was
    expect(
      await count(
        pool,
        `SELECT count(*) AS n FROM store_apps sa
          WHERE (SELECT count(*) FROM store_app_periods p
                  WHERE p.store_id = sa.store_id AND p.app_id = sa.app_id AND p.uninstalled_at IS NULL
                    AND p.installed_at = sa.first_seen_at) <> 1`,
      ),
    ).toBe(0);
    // and no open period lacks its install
    expect(
      await count(
        pool,
        `SELECT count(*) AS n FROM store_app_periods p WHERE p.uninstalled_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM store_apps sa WHERE sa.store_id = p.store_id AND sa.app_id = p.app_id)`,
      ),
    ).toBe(0);
    // a closed period ends after it starts and before now; periods of one store and app never overlap
    expect(
      await count(
        pool,
        `SELECT count(*) AS n FROM store_app_periods p JOIN stores s ON s.id = p.store_id
          WHERE p.installed_at < s.first_seen_at OR p.uninstalled_at <= p.installed_at
             OR p.uninstalled_at > s.last_scraped_at OR p.uninstalled_at >= now()
             OR p.seen_installing <> (p.installed_at > s.first_seen_at)`,
      ),
    ).toBe(0);
    expect(
      await count(
        pool,
        `SELECT count(*) AS n FROM store_app_periods a JOIN store_app_periods b
            ON a.store_id = b.store_id AND a.app_id = b.app_id AND a.id < b.id
          WHERE a.installed_at < COALESCE(b.uninstalled_at, 'infinity')
            AND b.installed_at < COALESCE(a.uninstalled_at, 'infinity')`,
      ),
    ).toBe(0);
    // the history has drops, reinstalls and apps already running when the store was first seen
    const { rows } = await pool.query<{
      closed: number;
      atFirstSight: number;
      reinstalled: number;
      storesDropping: number;
      twoYears: boolean;
    }>(
      `SELECT count(*) FILTER (WHERE uninstalled_at IS NOT NULL)::int AS closed,
              count(*) FILTER (WHERE NOT seen_installing)::int AS "atFirstSight",
              (SELECT count(*)::int FROM store_apps sa WHERE EXISTS (
                 SELECT 1 FROM store_app_periods p WHERE p.store_id = sa.store_id AND p.app_id = sa.app_id
                    AND p.uninstalled_at IS NOT NULL)) AS reinstalled,
              count(DISTINCT store_id) FILTER (WHERE uninstalled_at IS NOT NULL)::int AS "storesDropping",
              min(installed_at) < now() - interval '2 years' AS "twoYears"
         FROM store_app_periods`,
    );
    expect(rows[0]!.closed).toBeGreaterThan(500);
    expect(rows[0]!.atFirstSight).toBeGreaterThan(1000);
    expect(rows[0]!.reinstalled).toBeGreaterThan(20);
    expect(rows[0]!.storesDropping / 2000).toBeGreaterThan(0.25);
    expect(rows[0]!.twoYears).toBe(true);
  });

  it('records an app change for every period boundary inside the change window, and none besides', async () => {
    // the window: 90 days before each store's last scrape
    const boundaries = `
      SELECT p.store_id, a.slug, 'app_installed' AS change_type, p.installed_at AS at
        FROM store_app_periods p JOIN apps a ON a.id = p.app_id JOIN stores s ON s.id = p.store_id
       WHERE p.seen_installing AND p.installed_at >= s.last_scraped_at - interval '90 days'
      UNION ALL
      SELECT p.store_id, a.slug, 'app_uninstalled', p.uninstalled_at
        FROM store_app_periods p JOIN apps a ON a.id = p.app_id JOIN stores s ON s.id = p.store_id
       WHERE p.uninstalled_at >= s.last_scraped_at - interval '90 days'`;
    const records = `
      SELECT store_id, subject, change_type, detected_at FROM change_records WHERE entity = 'app'`;
    expect(await count(pool, `SELECT count(*) AS n FROM (${boundaries}) b`)).toBeGreaterThan(100);
    expect(
      await count(pool, `SELECT count(*) AS n FROM ((${boundaries}) EXCEPT ALL (${records})) x`),
    ).toBe(0);
    expect(
      await count(pool, `SELECT count(*) AS n FROM ((${records}) EXCEPT ALL (${boundaries})) x`),
    ).toBe(0);
  });

  it('writes one legacy summary per store under the store legacy id', async () => {
    expect(
      await count(
        pool,
        `
        SELECT count(*) AS n FROM stores s JOIN legacy_store_summaries l
          ON l.domain = s.domain AND l.legacy_id = s.legacy_id AND l.doc->>'legacyId' = s.legacy_id`,
      ),
    ).toBe(2000);
  });

  it('draws stores the way the platform looks: US first, Apparel the top vertical, heavy-tailed visits', async () => {
    const top = async (column: string) =>
      (
        await pool.query(
          `SELECT ${column} AS v, count(*) AS n FROM stores GROUP BY 1 ORDER BY 2 DESC LIMIT 1`,
        )
      ).rows[0];
    const country = await top('country_code');
    expect(country.v).toBe('US');
    expect(Number(country.n) / 2000).toBeGreaterThan(0.48);
    expect((await top('vertical')).v).toBe('Apparel & Accessories');
    const { rows } = await pool.query(`
      SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY monthly_visits) AS median, max(monthly_visits) AS max,
             avg(product_count) AS products
        FROM stores`);
    expect(Number(rows[0].max)).toBeGreaterThan(50 * Number(rows[0].median));
    expect(Number(rows[0].products)).toBeGreaterThan(7);
    expect(Number(rows[0].products)).toBeLessThan(14);
  });

  it('refuses to seed a catalog that has stores unless told to append or reset', async () => {
    await expect(seedCatalog({ pool, stores: 10, seed: 7, today })).rejects.toBeInstanceOf(
      SeedRefusedError,
    );
    expect(await countCatalogStores(pool)).toBe(2000);
  });

  it('appends with fresh ids and domains, keeping the indexes in place for a small append', async () => {
    const appended = await seedCatalog({ pool, stores: 50, seed: 8, today, mode: 'append' });
    expect(appended.rebuiltIndexes).toBe(false);
    expect([appended.firstStoreId, appended.lastStoreId]).toEqual([2001, 2050]);
    expect(await countCatalogStores(pool)).toBe(2050);
    expect(await count(pool, 'SELECT count(DISTINCT domain) AS n FROM stores')).toBe(2050);
    expect(
      await count(
        pool,
        `SELECT count(*) AS n FROM apps a WHERE install_count <> (SELECT count(*) FROM store_apps sa WHERE sa.app_id = a.id)`,
      ),
    ).toBe(0);
    expect(await schemaShape(pool)).toEqual(migratedShape);
    // new rows get ids after the seeded ones
    const { rows } = await pool.query<{ id: number }>(
      `INSERT INTO stores (domain, name) VALUES ('after-seed.example', 'After') RETURNING id`,
    );
    expect(rows[0]!.id).toBe(2051);
  });
});

describe('seedCatalog determinism and reset', () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const db of databases) await db.drop();
  });

  const day = new Date('2026-01-31T10:00:00Z');

  async function seeded(seed: number) {
    const db = await createTestDatabase();
    databases.push(db);
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    try {
      await seedCatalog({ pool, stores: 200, seed, today: day });
      return { db, checksums: await tableChecksums(pool) };
    } finally {
      await pool.end();
    }
  }

  it('writes the same catalog for the same seed and a different one for another seed', async () => {
    const first = (await seeded(42)).checksums;
    const second = (await seeded(42)).checksums;
    expect(second).toEqual(first);
    const other = (await seeded(43)).checksums;
    expect(other.stores).not.toBe(first.stores);
    expect(other.products).not.toBe(first.products);
  });

  it('replaces the catalog on reset, with the ids of a fresh seed', async () => {
    const { db, checksums: seed42 } = await seeded(42);
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    try {
      await seedCatalog({ pool, stores: 300, seed: 43, today: day, mode: 'append' });
      await seedCatalog({ pool, stores: 200, seed: 42, today: day, mode: 'reset' });
      expect(await tableChecksums(pool)).toEqual(seed42);
      expect(await countCatalogStores(pool)).toBe(200);
    } finally {
      await pool.end();
    }
  });
});

/** A legacy store port (a MongoDB one, say) that writes where the test says and reads nothing. */
const legacyPort = (writes: Pick<Partial<LegacyStore>, 'upsert' | 'upsertMany'>): LegacyStore => ({
  source: 'mongo:store_summaries',
  findByDomains: async () => new Map(),
  findByLegacyIds: async () => new Map(),
  upsert: async () => {},
  upsertMany: async () => {},
  moveDomain: async () => {},
  health: async () => ({ ok: true, backend: 'test' }),
  close: async () => {},
  ...writes,
});

describe('seedCatalog through a legacy store port', () => {
  it('hands the summaries to the port in batches instead of the JSONB table', async () => {
    const db = await createTestDatabase();
    const received: LegacySummary[] = [];
    let batches = 0;
    const port = legacyPort({
      upsert: async (s) => void received.push(s),
      upsertMany: async (many) => {
        batches++;
        received.push(...many);
      },
    });
    try {
      const report = await seedCatalog({
        url: db.url,
        stores: 1200,
        seed: 1,
        legacy: port,
        chunkSize: 500,
      });
      expect(report.legacySummaries).toEqual({ target: 'mongo:store_summaries', written: 1200 });
      expect(received).toHaveLength(1200);
      expect(batches).toBeGreaterThanOrEqual(3);
      expect(new Set(received.map((s) => s.domain)).size).toBe(1200);
      const pool = new pg.Pool({ connectionString: db.url, max: 1 });
      try {
        expect(await count(pool, 'SELECT count(*) AS n FROM legacy_store_summaries')).toBe(0);
        const { rows } = await pool.query<{ legacy_id: string }>(
          'SELECT legacy_id FROM stores WHERE domain = $1',
          [received[0]!.domain],
        );
        expect(rows[0]!.legacy_id).toBe(received[0]!.legacyId);
      } finally {
        await pool.end();
      }
    } finally {
      await db.drop();
    }
  });
});

describe('seedCatalog that fails part way', () => {
  it('leaves the catalog and its schema as they were: the rows loaded and the indexes dropped roll back together', async () => {
    const db = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    let batches = 0;
    const failing = legacyPort({
      // the second chunk's summaries fail: the first chunk's stores are already copied by then
      upsertMany: async () => {
        if (++batches === 2) throw new Error('legacy store went away');
      },
    });
    try {
      const migratedShape = await schemaShape(pool);
      await expect(
        seedCatalog({ pool, stores: 1000, seed: 3, legacy: failing, chunkSize: 400, today }),
      ).rejects.toThrow('legacy store went away');
      expect(batches).toBe(2);
      expect(await countCatalogStores(pool)).toBe(0);
      expect(await count(pool, 'SELECT count(*) AS n FROM products')).toBe(0);
      // the foreign keys and indexes the load dropped are back, valid
      expect(await schemaShape(pool)).toEqual(migratedShape);
      // and the connection is usable again, outside any transaction
      const report = await seedCatalog({ pool, stores: 20, seed: 3, today });
      expect(report.stores).toBe(20);
      expect(await countCatalogStores(pool)).toBe(20);
    } finally {
      await pool.end();
      await db.drop();
    }
  });
});
