// The Signals history on month partitions (migration partitioned_signal_history): a probe dated in
// a month the upkeep has not made yet (the clock far ahead of the months made at the worker's
// start) makes that month and writes its snapshots and insights into it; the sales and inventory
// routes read across months; the upkeep drops the Signals months past SIGNALS_RETENTION_MONTHS and
// leaves the store history to HISTORY_RETENTION_MONTHS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upkeepMonthPartitions } from '../../src/platform/database/month-partitions.ts';
import { startSignalsHarness, type SignalsHarness } from './support/signals-harness.ts';

let h: SignalsHarness;
let key: string;

const partitionsOf = async (table: string) =>
  (
    await h.services.db.pool.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`,
      [table],
    )
  ).rows.map((r) => r.name);

/** where each row of a series lives: partition name -> rows */
const rowsByPartition = async (table: string) =>
  Object.fromEntries(
    (
      await h.services.db.pool.query<{ part: string; n: number }>(
        `SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM ${table} GROUP BY 1 ORDER BY 1`,
      )
    ).rows.map((r) => [r.part, r.n]),
  );

beforeAll(async () => {
  h = await startSignalsHarness();
  key = await h.mintKey();
  await h.addStore('stock.test', [
    { handle: 'tee', title: 'Tee', price: 20, bestSellerRank: 1 },
    { handle: 'mug', title: 'Mug', price: 12.5, bestSellerRank: 2 },
  ]);
  // the first probe on the harness's first day (2030-01-07): a month the worker's upkeep made at its start
  expect(
    (await h.request('POST', '/v1/signals', { key, body: { domain: 'stock.test' } })).status,
  ).toBe(201);
  expect(await h.waitForProbe('stock.test', key)).toMatchObject({
    progress: { status: 'done', snapshots: 3 },
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('Signals history on month partitions', () => {
  it('inventory_snapshots and insights are partitioned by month', async () => {
    const { rows } = await h.services.db.pool.query<{
      table: string;
      strategy: string;
      key: string;
    }>(
      `SELECT c.relname AS table, p.partstrat AS strategy, a.attname AS key
         FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid
         JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
        WHERE c.relname IN ('inventory_snapshots', 'insights') ORDER BY 1`,
    );
    expect(rows).toEqual([
      { table: 'insights', strategy: 'r', key: 'created_at' },
      { table: 'inventory_snapshots', strategy: 'r', key: 'taken_at' },
    ]);
    expect(await rowsByPartition('inventory_snapshots')).toEqual({
      inventory_snapshots_p203001: 3,
    });
  });

  it('a probe dated in a month without a partition makes it and writes its snapshots and insights there', async () => {
    h.clock.set(new Date('2031-06-15T10:00:00Z'));
    expect(await partitionsOf('inventory_snapshots')).not.toContain('inventory_snapshots_p203106');
    expect(await partitionsOf('insights')).not.toContain('insights_p203106');
    h.storefront.setStock('stock.test', 101, 80); // TEE-S restocked: a restock insight of this probe
    expect((await h.request('POST', '/v1/signals/stock.test/probe', { key })).status).toBe(202);
    expect(await h.waitForProbe('stock.test', key)).toMatchObject({
      kind: 'manual',
      progress: { status: 'done', snapshots: 3 },
      error: null,
    });

    expect(await rowsByPartition('inventory_snapshots')).toEqual({
      inventory_snapshots_p203001: 3,
      inventory_snapshots_p203106: 3,
    });
    expect(await rowsByPartition('insights')).toEqual({ insights_p203106: 1 });
    const insights = await h.request('GET', '/v1/signals/stock.test/insights?kind=restock', {
      key,
    });
    expect(insights.status).toBe(200);
    expect(insights.body.data).toHaveLength(1);
    expect(insights.body.data[0].createdAt).toBe('2031-06-15T10:00:00.000Z');
    // the inventory of the last 7 days: the newest snapshots only
    const inventory = await h.request('GET', '/v1/signals/stock.test/inventory?days=7', { key });
    expect(inventory.status).toBe(200);
    const teeS = inventory.body.data.find((v: any) => v.sku === 'TEE-S');
    expect(teeS).toMatchObject({ endStock: 80, restocks: { count: 0 } });
    const stats = await h.request('GET', '/v1/signals/stock.test/stats', { key });
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ snapshots: 6, sales: { restocks: 1 } });
  });

  it('upkeep drops the Signals months past their retention and keeps the rest, the store history by its own', async () => {
    const client = await h.services.db.pool.connect();
    try {
      await client.query(
        `SELECT ensure_month_partitions('store_daily_snapshots', '2030-01-01', '2030-01-31')`,
      );
      // on 2032-03-15, 12 months of Signals kept: March 2031 onwards; the store history kept whole (0)
      const result = await upkeepMonthPartitions(client, new Date('2032-03-15T00:00:00Z'), {
        history: 0,
        signals: 12,
      });
      expect(result.dropped).toBeGreaterThan(0);
    } finally {
      client.release();
    }
    expect(await rowsByPartition('inventory_snapshots')).toEqual({
      inventory_snapshots_p203106: 3,
    });
    expect(await rowsByPartition('insights')).toEqual({ insights_p203106: 1 });
    const signalsMonths = await partitionsOf('inventory_snapshots');
    expect(signalsMonths.every((name) => name >= 'inventory_snapshots_p203103')).toBe(true);
    expect(signalsMonths).toContain('inventory_snapshots_p203206'); // three months ahead of March 2032
    expect(await partitionsOf('store_daily_snapshots')).toContain('store_daily_snapshots_p203001');
    // what is left still answers: one snapshot per variant, no sales yet
    const stats = await h.request('GET', '/v1/signals/stock.test/stats', { key });
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ snapshots: 3 });
  });
});
