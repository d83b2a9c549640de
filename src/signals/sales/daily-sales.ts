// Daily estimated sales of one watch from a date on, read from its snapshots (method in
// sales-estimate.ts). Shared by the sales routes and the ads-versus-sales overview.
import type { Queryable } from '../../platform/database/sql.ts';
import { queryRows } from '../../platform/database/sql.ts';
import { salesByDay, stockMoves, type DailySales, type SnapshotPoint } from './sales-estimate.ts';

export type { DailySales } from './sales-estimate.ts';

/**
 * The snapshots of a watch's variants taken at or after `from`, plus each variant's last snapshot
 * before it, so the first interval that ends on or after `from` is counted.
 */
export async function snapshotPointsSince(pool: Queryable, signalId: number, from: Date): Promise<SnapshotPoint[]> {
  const rows = await queryRows<{ variantId: number; takenAt: Date; stock: number | null; price: string }>(
    pool,
    `SELECT s.tracked_variant_id AS "variantId", s.taken_at AS "takenAt", s.stock, s.price::text AS price
       FROM inventory_snapshots s JOIN tracked_variants v ON v.id = s.tracked_variant_id
      WHERE v.signal_id = $1
        AND s.taken_at >= coalesce((SELECT max(p.taken_at) FROM inventory_snapshots p
                                    WHERE p.tracked_variant_id = s.tracked_variant_id AND p.taken_at < $2), $2)
      ORDER BY s.tracked_variant_id, s.taken_at`,
    [signalId, from],
  );
  return rows.map((row) => ({ ...row, price: Number(row.price) }));
}

/** Estimated units and revenue per UTC day on and after `from`'s day, oldest first. */
export async function dailySales(pool: Queryable, signalId: number, from: Date): Promise<DailySales[]> {
  const fromDay = from.toISOString().slice(0, 10);
  const days = salesByDay(stockMoves(await snapshotPointsSince(pool, signalId, from)));
  return days.filter((day) => day.day >= fromDay);
}
