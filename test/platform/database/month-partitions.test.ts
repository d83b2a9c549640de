// The append-only series partitioned by month (migrations partitioned_history and
// partitioned_signal_history): the migrations convert tables that already hold data without losing
// a row; the history, movers and change queries and the Signals inventory and insight reads touch
// only the months they need (EXPLAIN); writers make a missing month; the upkeep makes months ahead
// and drops those past each series' retention; a snapshot is still upserted on (store, day).
// The Signals writers' own path (a probe in a month not made yet) is test/signals/history-partitions.test.ts.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMovers } from '../../../src/analytics/movers.sql.ts';
import { findChanges } from '../../../src/change-feed/change.sql.ts';
import { createGraphqlContext } from '../../../src/graphql/context.ts';
import type { Services } from '../../../src/platform/services.ts';
import { MIGRATIONS_DIR, migrate, readMigrations } from '../../../src/platform/database/migrate.ts';
import {
  ensureMonthPartitions,
  upkeepMonthPartitions,
} from '../../../src/platform/database/month-partitions.ts';
import { listInsights } from '../../../src/signals/insights/insight-store.ts';
import { probeById } from '../../../src/signals/probes/probe-record.ts';
import { snapshotPointsSince } from '../../../src/signals/sales/daily-sales.ts';
import { historyPage } from '../../../src/stores/store.loaders.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';

const PARTITIONING = '20261125080000_partitioned_history';
const SIGNALS_PARTITIONING = '20261127090000_partitioned_signal_history';

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
      await client.query(
        `INSERT INTO stores (domain, name) SELECT 'store-' || n || '.example', 'Store ' || n FROM generate_series(1, 3) n`,
      );
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
      const {
        rows: [{ next: nextIdBefore }],
      } = await client.query('SELECT last_value + 1 AS next FROM change_records_id_seq');

      // this migration alone: later ones may add columns, which would change the rows' text
      await cp(path.join(MIGRATIONS_DIR, PARTITIONING), path.join(dir, PARTITIONING), {
        recursive: true,
      });
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
      expect(snapshotMonths.every((name) => /^store_daily_snapshots_p\d{6}$/.test(name))).toBe(
        true,
      );
      const {
        rows: [{ n: rowsInMonths }],
      } = await client.query(
        `SELECT count(*)::int AS n FROM store_daily_snapshots WHERE tableoid::regclass::text = 'store_daily_snapshots_p' || to_char(day, 'YYYYMM')`,
      );
      expect(rowsInMonths).toBe(1200);

      // keys, foreign keys and the change id sequence carried over
      await expect(
        client.query(`INSERT INTO store_daily_snapshots VALUES (1, current_date, 1, 1, 1, 1, 1)`),
      ).rejects.toMatchObject({ code: '23505' });
      await expect(
        client.query(`INSERT INTO store_daily_snapshots VALUES (999, current_date, 1, 1, 1, 1, 1)`),
      ).rejects.toMatchObject({ code: '23503' });
      const {
        rows: [{ id }],
      } = await client.query(
        `INSERT INTO change_records (store_id, entity, change_type, summary) VALUES (1, 'store', 'x', 'y') RETURNING id`,
      );
      expect(Number(id)).toBe(Number(nextIdBefore));
      await client.query('DELETE FROM stores WHERE id = 3');
      const {
        rows: [{ n: left }],
      } = await client.query(
        'SELECT count(*)::int AS n FROM store_daily_snapshots WHERE store_id = 3',
      );
      expect(left).toBe(0);
    } finally {
      await client.end();
    }
  });
});

describe('the migration converts the existing Signals inventory snapshots and insights', () => {
  let db: TestDatabase;
  let dir: string;
  afterAll(async () => {
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps every row, partitions them by month, keeps the ids continuing and the foreign keys', async () => {
    db = await createTestDatabase({ empty: true });
    dir = await mkdtemp(path.join(tmpdir(), 'migrations-before-'));
    for (const m of await readMigrations()) {
      if (m.name >= SIGNALS_PARTITIONING) continue;
      await cp(path.join(MIGRATIONS_DIR, m.name), path.join(dir, m.name), { recursive: true });
    }
    await migrate(db.url, { dir });
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO stores (domain, name) SELECT 'store-' || n || '.example', 'Store ' || n FROM generate_series(1, 2) n`,
      );
      await client.query(`INSERT INTO accounts (external_id, name) VALUES ('acct', 'Acct')`);
      await client.query(
        `INSERT INTO signals (account_id, store_id) SELECT a.id, s.id FROM accounts a, stores s`,
      );
      await client.query(
        `INSERT INTO signal_probes (signal_id, kind, status) SELECT id, 'scheduled', 'done' FROM signals`,
      );
      await client.query(`
        INSERT INTO tracked_variants (signal_id, product_handle, variant_id, title)
        SELECT w.id, 'tee', v::text, 'Tee ' || v FROM signals w, generate_series(1, 3) v`);
      // a snapshot of every variant every 2 days over 420 days (15 months), an insight a week
      await client.query(`
        INSERT INTO inventory_snapshots (tracked_variant_id, probe_id, taken_at, stock, price, available)
        SELECT v.id, p.id, now() - make_interval(days => d), 100 - d % 50, 19.99, true
          FROM tracked_variants v JOIN signal_probes p ON p.signal_id = v.signal_id, generate_series(0, 419, 2) d`);
      await client.query(`
        INSERT INTO insights (signal_id, account_id, kind, title, body, data, created_at)
        SELECT w.id, w.account_id, 'restock', 'Restock ' || d, 'body', jsonb_build_object('d', d), now() - make_interval(days => d)
          FROM signals w, generate_series(0, 419, 7) d`);
      const fingerprint = async () =>
        (
          await client.query<{ snapshots: string; insights: string; n: number }>(`
            SELECT (SELECT md5(string_agg(t::text, ',' ORDER BY id)) FROM inventory_snapshots t) AS snapshots,
                   (SELECT md5(string_agg(t::text, ',' ORDER BY id)) FROM insights t) AS insights,
                   (SELECT count(*)::int FROM inventory_snapshots) AS n`)
        ).rows[0]!;
      const before = await fingerprint();
      expect(before.n).toBe(6 * 210);
      const next = async (seq: string) =>
        Number((await client.query(`SELECT last_value + 1 AS next FROM ${seq}`)).rows[0].next);
      const nextSnapshotId = await next('inventory_snapshots_id_seq');
      const nextInsightId = await next('insights_id_seq');

      await cp(
        path.join(MIGRATIONS_DIR, SIGNALS_PARTITIONING),
        path.join(dir, SIGNALS_PARTITIONING),
        { recursive: true },
      );
      const result = await migrate(db.url, { dir });
      expect(result.applied).toEqual([SIGNALS_PARTITIONING]);

      expect(await fingerprint()).toEqual(before);
      const { rows: kinds } = await client.query<{ relname: string; strategy: string }>(
        `SELECT c.relname, p.partstrat AS strategy FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid
          WHERE c.relname IN ('inventory_snapshots', 'insights') ORDER BY 1`,
      );
      expect(kinds).toEqual([
        { relname: 'insights', strategy: 'r' },
        { relname: 'inventory_snapshots', strategy: 'r' },
      ]);
      // 14 or 15 months of data plus three ahead; every row in the partition of its month
      const months = await partitionsOf(client, 'inventory_snapshots');
      expect(months.length).toBeGreaterThanOrEqual(17);
      expect(months.every((name) => /^inventory_snapshots_p\d{6}$/.test(name))).toBe(true);
      const {
        rows: [{ n: inTheirMonth }],
      } = await client.query(
        `SELECT count(*)::int AS n FROM inventory_snapshots
          WHERE tableoid::regclass::text = 'inventory_snapshots_p' || to_char(taken_at AT TIME ZONE 'UTC', 'YYYYMM')`,
      );
      expect(inTheirMonth).toBe(6 * 210);
      expect((await partitionsOf(client, 'insights')).length).toBeGreaterThanOrEqual(17);

      // ids continue from the same sequences; the keys (id, time) and the foreign keys hold
      const {
        rows: [snapshot],
      } = await client.query(
        `INSERT INTO inventory_snapshots (tracked_variant_id, probe_id, taken_at, stock, price, available)
         SELECT min(id), (SELECT min(id) FROM signal_probes), now(), 1, 1, true FROM tracked_variants RETURNING id, taken_at`,
      );
      expect(snapshot.id).toBe(nextSnapshotId);
      await expect(
        client.query(
          `INSERT INTO inventory_snapshots (id, tracked_variant_id, probe_id, taken_at, stock, price, available)
                      SELECT $1, tracked_variant_id, probe_id, taken_at, 2, 2, true FROM inventory_snapshots WHERE id = $1`,
          [snapshot.id],
        ),
      ).rejects.toMatchObject({ code: '23505' });
      await expect(
        client.query(
          `INSERT INTO inventory_snapshots (tracked_variant_id, probe_id, taken_at, stock, price, available) SELECT 999999, min(id), now(), 1, 1, true FROM signal_probes`,
        ),
      ).rejects.toMatchObject({ code: '23503' });
      const {
        rows: [insight],
      } = await client.query(
        `INSERT INTO insights (signal_id, account_id, kind, title, body) SELECT id, account_id, 'restock', 't', 'b' FROM signals ORDER BY id LIMIT 1 RETURNING id`,
      );
      expect(insight.id).toBe(nextInsightId);
      // deleting a watch still takes its snapshots and insights with it (ON DELETE CASCADE)
      const {
        rows: [gone],
      } = await client.query(
        'DELETE FROM signals WHERE id = (SELECT max(id) FROM signals) RETURNING id',
      );
      const {
        rows: [left],
      } = await client.query(
        `SELECT (SELECT count(*)::int FROM inventory_snapshots s JOIN tracked_variants v ON v.id = s.tracked_variant_id WHERE v.signal_id = $1) AS snapshots,
                (SELECT count(*)::int FROM insights WHERE signal_id = $1) AS insights,
                (SELECT count(*)::int FROM inventory_snapshots) AS all_snapshots`,
        [gone.id],
      );
      expect(left).toEqual({ snapshots: 0, insights: 0, all_snapshots: 3 * 210 + 1 });
    } finally {
      await client.end();
    }
  });
});

/** the partitions a plan reads: every scan node's relation, with whether it ran (ANALYZE) */
function scans(plan: any, out: Array<{ relation: string; loops?: number }> = []) {
  if (plan['Relation Name'])
    out.push({ relation: plan['Relation Name'], loops: plan['Actual Loops'] });
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
        const { rows } = await pool.query(
          `EXPLAIN (${analyze ? 'ANALYZE, ' : ''}FORMAT JSON) ${text}`,
          params,
        );
        plans.push(rows[0]['QUERY PLAN'][0].Plan);
        return { rows: [] };
      },
    } as unknown as pg.Pool;
    return { queryable, plans };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    await pool.query(
      `SELECT ensure_month_partitions($1::regclass, current_date - 400, current_date) FROM unnest(ARRAY['store_daily_snapshots', 'change_records', 'inventory_snapshots', 'insights']) t`.replace(
        '$1',
        't',
      ),
    );
    await pool.query(
      `INSERT INTO stores (domain, name, visits_change_pct, monthly_visits) VALUES ('fell.example', 'Fell', -100, 0), ('other.example', 'Other', 5, 10)`,
    );
    await pool.query(`
      INSERT INTO store_daily_snapshots (store_id, day, monthly_visits, revenue_low_usd, revenue_high_usd, service_rating, product_count)
      SELECT s.id, current_date - d, 5000 - d, 10, 20, 4, 3 FROM stores s, generate_series(0, 399) d`);
    await pool.query(`
      INSERT INTO change_records (store_id, entity, change_type, summary, detected_at)
      SELECT s.id, 'store', 'theme_changed', 'change', now() - make_interval(days => d) FROM stores s, generate_series(0, 399) d`);
    // a watch of each store, two tracked variants each, a snapshot of each every day and an insight a day, 400 days back
    await pool.query(`INSERT INTO accounts (external_id, name) VALUES ('acct', 'Acct')`);
    await pool.query(
      `INSERT INTO signals (account_id, store_id) SELECT a.id, s.id FROM accounts a, stores s`,
    );
    await pool.query(
      `INSERT INTO signal_probes (signal_id, kind, status) SELECT id, 'scheduled', 'done' FROM signals`,
    );
    await pool.query(
      `INSERT INTO tracked_variants (signal_id, product_handle, variant_id, title) SELECT w.id, 'tee', v::text, 'Tee' FROM signals w, generate_series(1, 2) v`,
    );
    await pool.query(`
      INSERT INTO inventory_snapshots (tracked_variant_id, probe_id, taken_at, stock, price, available)
      SELECT v.id, p.id, now() - make_interval(days => d), 1000 - d, 10, true
        FROM tracked_variants v JOIN signal_probes p ON p.signal_id = v.signal_id, generate_series(0, 399) d`);
    await pool.query(`
      INSERT INTO insights (signal_id, account_id, kind, title, body, created_at)
      SELECT w.id, w.account_id, 'restock', 'r', 'b', now() - make_interval(days => d) FROM signals w, generate_series(0, 399) d`);
    await pool.query(
      'ANALYZE store_daily_snapshots, change_records, stores, inventory_snapshots, insights, tracked_variants, signals',
    );
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('history: a newest-first page runs only the newest months (older partitions are never executed)', async () => {
    const { queryable, plans } = explaining(true);
    const services = { db: { read: queryable, pool: queryable } } as unknown as Services;
    const {
      rows: [store],
    } = await pool.query("SELECT id FROM stores WHERE domain = 'fell.example'");
    await historyPage(createGraphqlContext(services)).load({
      parentId: store.id,
      withTotal: true,
      offset: 0,
      limit: 20,
    });
    const page = plans.find((p) => JSON.stringify(p).includes('"Limit"'))!;
    const snapshotScans = scans(page).filter((s) =>
      s.relation.startsWith('store_daily_snapshots_p'),
    );
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
    const read = new Set(
      scans(plans[0])
        .map((s) => s.relation)
        .filter((r) => r.startsWith('store_daily_snapshots')),
    );
    const expected = new Set([30, 45, 59].map((d) => monthName('store_daily_snapshots', d)));
    expect(read).toEqual(expected);
    expect(JSON.stringify(plans[0])).toContain('Subplans Removed');
  });

  it('changes since a date: only the months from that date on are planned', async () => {
    const { queryable, plans } = explaining(false);
    await findChanges(
      queryable,
      { since: new Date(Date.now() - 10 * 86_400_000) },
      { offset: 0, limit: 10 },
    );
    const read = new Set(
      scans(plans[0])
        .map((s) => s.relation)
        .filter((r) => r.startsWith('change_records')),
    );
    // the months from ten days ago on (the current one, maybe the previous, the empty ones ahead); none older
    expect(read).toContain(monthName('change_records', 0));
    expect([...read].every((name) => name >= monthName('change_records', 10))).toBe(true);
    expect(read.size).toBeLessThanOrEqual(5);
  });

  it('Signals sales and inventory from a date: the months from that date on, and the last snapshot before it from its own month', async () => {
    const { queryable, plans } = explaining(true);
    const {
      rows: [watch],
    } = await pool.query(
      "SELECT w.id FROM signals w JOIN stores s ON s.id = w.store_id WHERE s.domain = 'fell.example'",
    );
    await snapshotPointsSince(queryable, watch.id, new Date(Date.now() - 10 * 86_400_000));
    const snapshotScans = scans(plans[0]).filter((s) =>
      s.relation.startsWith('inventory_snapshots_p'),
    );
    const ran = new Set(snapshotScans.filter((s) => (s.loops ?? 0) > 0).map((s) => s.relation));
    // the months from ten days back (the current one, maybe the previous, the empty ones ahead) and,
    // for the last snapshot before that, a newest-first scan that ran only in the month of the day
    // before: the older months are in its plan but never ran
    expect(ran).toContain(monthName('inventory_snapshots', 0));
    expect([...ran].every((name) => name >= monthName('inventory_snapshots', 11))).toBe(true);
    expect(ran.size).toBeLessThanOrEqual(5);
    expect(snapshotScans.filter((s) => s.loops === 0).length).toBeGreaterThanOrEqual(12);
  });

  it('Signals sales and inventory: the rows read are the same as without partition pruning', async () => {
    const {
      rows: [watch],
    } = await pool.query(
      "SELECT w.id FROM signals w JOIN stores s ON s.id = w.store_id WHERE s.domain = 'fell.example'",
    );
    const from = new Date(Date.now() - 45 * 86_400_000);
    const points = await snapshotPointsSince(pool, watch.id, from);
    // each variant's last snapshot before `from` (46 days ago) and the 45 since
    expect(points).toHaveLength(2 * 46);
    const { rows: expected } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM inventory_snapshots s JOIN tracked_variants v ON v.id = s.tracked_variant_id
        WHERE v.signal_id = $1 AND s.taken_at >= coalesce((SELECT max(p.taken_at) FROM inventory_snapshots p
                                                            WHERE p.tracked_variant_id = s.tracked_variant_id AND p.taken_at < $2), $2)`,
      [watch.id, from],
    );
    expect(points).toHaveLength(expected[0]!.n);
    expect(points.map((p) => p.takenAt.getTime())).toEqual(
      [...points]
        .sort((a, b) => a.variantId - b.variantId || a.takenAt.getTime() - b.takenAt.getTime())
        .map((p) => p.takenAt.getTime()),
    );
  });

  it("a probe's record counts its snapshots in the month of its end only (the probe status callers poll)", async () => {
    const {
      rows: [watch],
    } = await pool.query(
      "SELECT w.id FROM signals w JOIN stores s ON s.id = w.store_id WHERE s.domain = 'fell.example'",
    );
    // the probe that wrote the snapshots of 40 days ago ended then
    const {
      rows: [probe],
    } = await pool.query(
      `INSERT INTO signal_probes (signal_id, kind, status, created_at, finished_at)
       SELECT $1, 'manual', 'done', taken_at, taken_at FROM inventory_snapshots s JOIN tracked_variants v ON v.id = s.tracked_variant_id
        WHERE v.signal_id = $1 AND taken_at < now() - interval '40 days' ORDER BY taken_at DESC LIMIT 1 RETURNING id, finished_at`,
      [watch.id],
    );
    await pool.query(
      `UPDATE inventory_snapshots SET probe_id = $1 WHERE taken_at = $2 AND tracked_variant_id IN (SELECT id FROM tracked_variants WHERE signal_id = $3)`,
      [probe.id, probe.finished_at, watch.id],
    );
    expect(await probeById(pool, probe.id)).toMatchObject({ id: probe.id, snapshots: 2 });
    const { queryable, plans } = explaining(true);
    await probeById(queryable, probe.id);
    const snapshotScans = scans(plans[0]).filter((s) =>
      s.relation.startsWith('inventory_snapshots_p'),
    );
    const ran = new Set(snapshotScans.filter((s) => (s.loops ?? 0) > 0).map((s) => s.relation));
    expect([...ran]).toEqual([
      `inventory_snapshots_p${probe.finished_at.toISOString().slice(0, 7).replace('-', '')}`,
    ]);
  });

  it('insights: a newest-first page of a watch runs only the newest months', async () => {
    const { queryable, plans } = explaining(true);
    const {
      rows: [watch],
    } = await pool.query(
      "SELECT w.id, w.account_id FROM signals w JOIN stores s ON s.id = w.store_id WHERE s.domain = 'fell.example'",
    );
    await listInsights(
      queryable,
      { signalId: watch.id, accountId: watch.account_id, kind: null },
      { offset: 0, limit: 20 },
    );
    const insightScans = scans(plans[0]).filter((s) => s.relation.startsWith('insights_p'));
    const ran = insightScans.filter((s) => (s.loops ?? 0) > 0).map((s) => s.relation);
    expect(insightScans.length).toBeGreaterThanOrEqual(14);
    expect(ran).toContain(monthName('insights', 0));
    expect(ran.every((name) => name >= monthName('insights', 19))).toBe(true);
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
    const { rows } = await pool.query(
      `SELECT monthly_visits, tableoid::regclass::text AS part FROM store_daily_snapshots WHERE day = '2031-05-10'`,
    );
    expect(rows).toEqual([{ monthly_visits: 2, part: 'store_daily_snapshots_p203105' }]);
    expect(await partitionsOf(pool, 'change_records')).toContain('change_records_p203105');
  });

  it('a month made through one pool is still made through a pool of another database (what is known is per pool)', async () => {
    await ensureMonthPartitions(pool, new Date('2032-08-01T00:00:00Z'));
    const other = await createTestDatabase();
    const otherPool = new pg.Pool({ connectionString: other.url, max: 1 });
    try {
      await ensureMonthPartitions(otherPool, new Date('2032-08-20T00:00:00Z'));
      expect(await partitionsOf(otherPool, 'inventory_snapshots')).toContain(
        'inventory_snapshots_p203208',
      );
    } finally {
      await otherPool.end();
      await other.drop();
    }
  });

  it('making a month gives up after its lock timeout rather than wait on a referenced table a writer holds (no deadlock with it)', async () => {
    await pool.query(`INSERT INTO accounts (id, external_id, name) VALUES (1, 'acct', 'Acct')`);
    await pool.query(`INSERT INTO signals (id, account_id, store_id) VALUES (1, 1, 1)`);
    await pool.query(`INSERT INTO signal_probes (id, signal_id, kind) VALUES (1, 1, 'scheduled')`);
    const writer = new pg.Client({ connectionString: db.url });
    await writer.connect();
    try {
      // a probe's transaction: tracked variants written first, its probe row updated later
      await writer.query('BEGIN');
      await writer.query(
        `INSERT INTO tracked_variants (signal_id, product_handle, variant_id, title) VALUES (1, 'tee', '1', 'Tee')`,
      );
      const started = Date.now();
      const making = pool
        .query(`SELECT ensure_month_partitions('inventory_snapshots', '2036-01-01', '2036-01-01')`)
        .then(
          () => ({ code: 'made' }),
          (error: { code: string }) => ({ code: error.code }),
        );
      await new Promise((resolve) => setTimeout(resolve, 800));
      await writer.query(`UPDATE signal_probes SET status = 'done' WHERE id = 1`);
      await writer.query('COMMIT');
      // 55P03 lock_not_available, after about 500 ms; not 40P01 (deadlock) nor made after the writer's commit
      expect(await making).toEqual({ code: '55P03' });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await writer.end();
    }
    // once the writer is done the month is made
    await ensureMonthPartitions(pool, new Date('2036-01-15T00:00:00Z'));
    expect(await partitionsOf(pool, 'inventory_snapshots')).toContain(
      'inventory_snapshots_p203601',
    );
  });

  it('upkeep makes three months ahead and drops the months past retention', async () => {
    const client = await pool.connect();
    try {
      await client.query(
        `SELECT ensure_month_partitions('store_daily_snapshots', '2030-01-01', '2030-12-31')`,
      );
      await snapshot('2030-02-14', 7);
      const result = await upkeepMonthPartitions(client, new Date('2030-12-15T00:00:00Z'), {
        history: 6,
        signals: 6,
      });
      const months = await partitionsOf(client, 'store_daily_snapshots');
      // kept: June 2030 (six whole months before December) onwards, and March 2031 made ahead
      expect(months).not.toContain('store_daily_snapshots_p203005');
      expect(months).toContain('store_daily_snapshots_p203006');
      expect(months).toContain('store_daily_snapshots_p203103');
      expect(result.dropped).toBeGreaterThanOrEqual(5);
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM store_daily_snapshots WHERE day = '2030-02-14'`,
      );
      expect(rows[0].n).toBe(0);
    } finally {
      client.release();
    }
  });
});
