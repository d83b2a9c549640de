// The append-only series partitioned by month (migration partitioned_history): the migration
// converts tables that already hold data without losing a row; the history, movers and change
// queries read only the months they need (EXPLAIN); writers make a missing month; the upkeep makes
// months ahead and drops those past retention; a snapshot is still upserted on (store, day).
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMovers } from '../../../src/analytics/movers.sql.ts';
import { findChanges } from '../../../src/changes/change.sql.ts';
import { createGraphqlContext } from '../../../src/graphql/context.ts';
import type { Services } from '../../../src/platform/services.ts';
import { MIGRATIONS_DIR, migrate, readMigrations } from '../../../src/platform/database/migrate.ts';
import { ensureMonthPartitions, upkeepMonthPartitions } from '../../../src/platform/database/month-partitions.ts';
import { historyPage } from '../../../src/stores/store.loaders.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';

const PARTITIONING = '20261125080000_partitioned_history';

const partitionsOf = async (db: pg.Pool | pg.Client, table: string) =>
  (
    await db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`,
      [table],
    )
  ).rows.map((r) => r.name);

describe('the migration converts the existing history and change records', () => {
  let db: TestDatabase;
  let dir: string;
  afterAll(async () => {
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps every row, partitions them by month, and keeps the keys and foreign keys', async () => {
    db = await createTestDatabase({ empty: true });
    // the schema as it was before partitioning: the migrations up to the one before
    dir = await mkdtemp(path.join(tmpdir(), 'migrations-before-'));
    for (const m of await readMigrations()) {
      if (m.name >= PARTITIONING) continue;
      await cp(path.join(MIGRATIONS_DIR, m.name), path.join(dir, m.name), { recursive: true });
    }
    await migrate(db.url, { dir });
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query(`INSERT INTO stores (domain, name) SELECT 'store-' || n || '.example', 'Store ' || n FROM generate_series(1, 3) n`);
      // 400 days of history per store, spanning 14 months, and change records over the same span
      await client.query(`
        INSERT INTO store_daily_snapshots (store_id, day, monthly_visits, revenue_low_usd, revenue_high_usd, service_rating, product_count)
        SELECT s.id, current_date - d, 1000 + d, 10, 20, 4, d FROM stores s, generate_series(0, 399) d`);
      await client.query(`
        INSERT INTO change_records (store_id, entity, change_type, summary, detected_at)
        SELECT s.id, 'store', 'theme_changed', 'change ' || d, now() - make_interval(days => d) FROM stores s, generate_series(0, 399, 7) d`);
      const fingerprint = async () =>
        (
          await client.query<{ snapshots: string; changes: string }>(`
            SELECT (SELECT md5(string_agg(t::text, ',' ORDER BY store_id, day)) FROM store_daily_snapshots t) AS snapshots,
                   (SELECT md5(string_agg(t::text, ',' ORDER BY id)) FROM change_records t) AS changes`)
        ).rows[0]!;
      const before = await fingerprint();
      const { rows: [{ next: nextIdBefore }] } = await client.query("SELECT last_value + 1 AS next FROM change_records_id_seq");

      // this migration alone: later ones may add columns, which would change the rows' text
      await cp(path.join(MIGRATIONS_DIR, PARTITIONING), path.join(dir, PARTITIONING), { recursive: true });
      const result = await migrate(db.url, { dir });
      expect(result.applied).toEqual([PARTITIONING]);

      expect(await fingerprint()).toEqual(before);
      const { rows: kinds } = await client.query<{ relname: string; relkind: string }>(
        "SELECT relname, relkind FROM pg_class WHERE relname IN ('store_daily_snapshots', 'change_records') ORDER BY 1",
      );
      expect(kinds).toEqual([
        { relname: 'change_records', relkind: 'p' },
        { relname: 'store_daily_snapshots', relkind: 'p' },
      ]);
      // 14 or 15 months of data plus three ahead, none of it outside a month partition
      const snapshotMonths = await partitionsOf(client, 'store_daily_snapshots');
      expect(snapshotMonths.length).toBeGreaterThanOrEqual(17);
      expect(snapshotMonths.every((name) => /^store_daily_snapshots_p\d{6}$/.test(name))).toBe(true);
      const { rows: [{ n: rowsInMonths }] } = await client.query(
        `SELECT count(*)::int AS n FROM store_daily_snapshots WHERE tableoid::regclass::text = 'store_daily_snapshots_p' || to_char(day, 'YYYYMM')`,
      );
      expect(rowsInMonths).toBe(1200);

      // keys, foreign keys and the change id sequence carried over
      await expect(
        client.query(`INSERT INTO store_daily_snapshots VALUES (1, current_date, 1, 1, 1, 1, 1)`),
      ).rejects.toMatchObject({ code: '23505' });
      await expect(client.query(`INSERT INTO store_daily_snapshots VALUES (999, current_date, 1, 1, 1, 1, 1)`)).rejects.toMatchObject({ code: '23503' });
      const { rows: [{ id }] } = await client.query(`INSERT INTO change_records (store_id, entity, change_type, summary) VALUES (1, 'store', 'x', 'y') RETURNING id`);
      expect(Number(id)).toBe(Number(nextIdBefore));
      await client.query('DELETE FROM stores WHERE id = 3');
      const { rows: [{ n: left }] } = await client.query('SELECT count(*)::int AS n FROM store_daily_snapshots WHERE store_id = 3');
      expect(left).toBe(0);
    } finally {
      await client.end();
    }
  });
});

/** the partitions a plan reads: every scan node's relation, with whether it ran (ANALYZE) */
function scans(plan: any, out: Array<{ relation: string; loops?: number }> = []) {
  if (plan['Relation Name']) out.push({ relation: plan['Relation Name'], loops: plan['Actual Loops'] });
  for (const child of plan.Plans ?? []) scans(child, out);
  return out;
}

const monthName = (table: string, daysAgo: number) => {
  const d = new Date(Date.now() - daysAgo * 86_400_000);
  return `${table}_p${d.toISOString().slice(0, 4)}${d.toISOString().slice(5, 7)}`;
};

describe('queries on the partitioned series', () => {
  let db: TestDatabase;
  let pool: pg.Pool;

  /** a Queryable that, instead of running a statement, explains it (ANALYZE runs it) and keeps the plan */
  const explaining = (analyze: boolean) => {
    const plans: any[] = [];
    const queryable = {
      query: async (config: string | { text: string; values?: unknown[] }, values?: unknown[]) => {
        const text = typeof config === 'string' ? config : config.text;
        const params = typeof config === 'string' ? values : config.values;
        const { rows } = await pool.query(`EXPLAIN (${analyze ? 'ANALYZE, ' : ''}FORMAT JSON) ${text}`, params);
        plans.push(rows[0]['QUERY PLAN'][0].Plan);
        return { rows: [] };
      },
    } as unknown as pg.Pool;
    return { queryable, plans };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    await pool.query(`SELECT ensure_month_partitions($1::regclass, current_date - 400, current_date) FROM unnest(ARRAY['store_daily_snapshots', 'change_records']) t`.replace('$1', 't'));
    await pool.query(`INSERT INTO stores (domain, name, visits_change_pct, monthly_visits) VALUES ('fell.example', 'Fell', -100, 0), ('other.example', 'Other', 5, 10)`);
    await pool.query(`
      INSERT INTO store_daily_snapshots (store_id, day, monthly_visits, revenue_low_usd, revenue_high_usd, service_rating, product_count)
      SELECT s.id, current_date - d, 5000 - d, 10, 20, 4, 3 FROM stores s, generate_series(0, 399) d`);
    await pool.query(`
      INSERT INTO change_records (store_id, entity, change_type, summary, detected_at)
      SELECT s.id, 'store', 'theme_changed', 'change', now() - make_interval(days => d) FROM stores s, generate_series(0, 399) d`);
    await pool.query('ANALYZE store_daily_snapshots, change_records, stores');
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('history: a newest-first page runs only the newest months (older partitions are never executed)', async () => {
    const { queryable, plans } = explaining(true);
    const services = { db: { read: queryable, pool: queryable } } as unknown as Services;
    const { rows: [store] } = await pool.query("SELECT id FROM stores WHERE domain = 'fell.example'");
    await historyPage(createGraphqlContext(services)).load({ parentId: store.id, offset: 0, limit: 20 });
    const page = plans.find((p) => JSON.stringify(p).includes('"Limit"'))!;
    const snapshotScans = scans(page).filter((s) => s.relation.startsWith('store_daily_snapshots_p'));
    const ran = snapshotScans.filter((s) => (s.loops ?? 0) > 0).map((s) => s.relation);
    expect(snapshotScans.length).toBeGreaterThanOrEqual(14);
    // 20 days back reach the previous month at most; the months made ahead are empty and ran too
    expect(ran).toContain(monthName('store_daily_snapshots', 0));
    expect(ran.every((name) => name >= monthName('store_daily_snapshots', 19))).toBe(true);
    expect(ran.length).toBeLessThan(snapshotScans.length - 10);
  });

  it('movers: the snapshot of 30 days earlier is read from the months of that span only (pruned)', async () => {
    const { queryable, plans } = explaining(false);
    await findMovers(queryable, { metric: 'visits', direction: 'down' }, { offset: 0, limit: 10 });
    const read = new Set(scans(plans[0]).map((s) => s.relation).filter((r) => r.startsWith('store_daily_snapshots')));
    const expected = new Set([30, 45, 59].map((d) => monthName('store_daily_snapshots', d)));
    expect(read).toEqual(expected);
    expect(JSON.stringify(plans[0])).toContain('Subplans Removed');
  });

  it('changes since a date: only the months from that date on are planned', async () => {
    const { queryable, plans } = explaining(false);
    await findChanges(queryable, { since: new Date(Date.now() - 10 * 86_400_000) }, { offset: 0, limit: 10 });
    const read = new Set(scans(plans[0]).map((s) => s.relation).filter((r) => r.startsWith('change_records')));
    // the months from ten days ago on (the current one, maybe the previous, the empty ones ahead); none older
    expect(read).toContain(monthName('change_records', 0));
    expect([...read].every((name) => name >= monthName('change_records', 10))).toBe(true);
    expect(read.size).toBeLessThanOrEqual(5);
  });
});

describe('months made and dropped', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    await pool.query(`INSERT INTO stores (id, domain, name) VALUES (1, 'a.example', 'A')`);
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  const snapshot = (day: string, visits: number) =>
    pool.query(
      `INSERT INTO store_daily_snapshots (store_id, day, monthly_visits, revenue_low_usd, revenue_high_usd, service_rating, product_count)
       VALUES (1, $1, $2, 1, 2, 4, 3)
       ON CONFLICT (store_id, day) DO UPDATE SET monthly_visits = excluded.monthly_visits`,
      [day, visits],
    );

  it('a write dated in a month without a partition needs ensureMonthPartitions first, and then works', async () => {
    await expect(snapshot('2031-05-10', 1)).rejects.toMatchObject({ code: '23514' });
    await ensureMonthPartitions(pool, new Date('2031-05-10T12:00:00Z'));
    await snapshot('2031-05-10', 1);
    await snapshot('2031-05-10', 2); // the daily upsert on (store, day)
    const { rows } = await pool.query(`SELECT monthly_visits, tableoid::regclass::text AS part FROM store_daily_snapshots WHERE day = '2031-05-10'`);
    expect(rows).toEqual([{ monthly_visits: 2, part: 'store_daily_snapshots_p203105' }]);
    expect(await partitionsOf(pool, 'change_records')).toContain('change_records_p203105');
  });

  it('upkeep makes three months ahead and drops the months past retention', async () => {
    const client = await pool.connect();
    try {
      await client.query(`SELECT ensure_month_partitions('store_daily_snapshots', '2030-01-01', '2030-12-31')`);
      await snapshot('2030-02-14', 7);
      const result = await upkeepMonthPartitions(client, new Date('2030-12-15T00:00:00Z'), 6);
      const months = await partitionsOf(client, 'store_daily_snapshots');
      // kept: June 2030 (six whole months before December) onwards, and March 2031 made ahead
      expect(months).not.toContain('store_daily_snapshots_p203005');
      expect(months).toContain('store_daily_snapshots_p203006');
      expect(months).toContain('store_daily_snapshots_p203103');
      expect(result.dropped).toBeGreaterThanOrEqual(5);
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM store_daily_snapshots WHERE day = '2030-02-14'`);
      expect(rows[0].n).toBe(0);
    } finally {
      client.release();
    }
  });
});
