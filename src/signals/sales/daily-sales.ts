// Daily estimated sales of one watch from a date on, read from its snapshots (method in
// sales-estimate.ts). Shared by the sales routes and the ads-versus-sales overview.
import type { Queryable } from '../../platform/database/sql.ts';
import { queryRows } from '../../platform/database/sql.ts';
import { salesByDay, stockMoves, type DailySales, type SnapshotPoint } from './sales-estimate.ts';

export type { DailySales } from './sales-estimate.ts';

/**
 * The snapshots of a watch's variants taken at or after `from`, plus each variant's last snapshot
 * before it (every row of that instant), so the first interval that ends on or after `from` is
 * counted. inventory_snapshots is partitioned by month of taken_at: the first part reads only the
 * months from `from` on; the second reads each variant's rows of its last instant before `from`
 * with a newest-first scan that stops in the newest month holding one.
 */
export async function snapshotPointsSince(
  pool: Queryable,
  signalId: number,
  from: Date,
): Promise<SnapshotPoint[]> {
  const rows = await queryRows<{
    variantId: number;
    takenAt: Date;
    stock: number | null;
    price: string;
  }>(
    pool,
    `SELECT s.tracked_variant_id AS "variantId", s.taken_at AS "takenAt", s.stock, s.price::text AS price
       FROM inventory_snapshots s JOIN tracked_variants v ON v.id = s.tracked_variant_id
      WHERE v.signal_id = $1 AND s.taken_at >= $2
     UNION ALL
     SELECT v.id, b.taken_at, b.stock, b.price::text
       FROM tracked_variants v
       CROSS JOIN LATERAL (SELECT p.taken_at, p.stock, p.price FROM inventory_snapshots p
                            WHERE p.tracked_variant_id = v.id AND p.taken_at < $2
                            ORDER BY p.taken_at DESC FETCH FIRST 1 ROW WITH TIES) b
      WHERE v.signal_id = $1
      ORDER BY 1, 2`,
    [signalId, from],
  );
  return rows.map((row) => ({ ...row, price: Number(row.price) }));
}

/** Estimated units and revenue per UTC day on and after `from`'s day, oldest first. */
export async function dailySales(
  pool: Queryable,
  signalId: number,
  from: Date,
): Promise<DailySales[]> {
  const fromDay = from.toISOString().slice(0, 10);
  const days = salesByDay(stockMoves(await snapshotPointsSince(pool, signalId, from)));
  return days.filter((day) => day.day >= fromDay);
}
