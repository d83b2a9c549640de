// The sales figures of a watch, built on the estimate of sales-estimate.ts: aggregate stats, daily
// sales and per-variant inventory. Figures need at least 2 snapshots of a variant (spec part 3);
// before that the answers are empty with a note, not an error. Amounts are in the store's own
// currency (the prices its storefront shows), named beside them; the USD fields carry the same
// amount for a USD store and are null for any other: nothing is converted, so nothing is a guess.
// One watch is one store, so its amounts never mix currencies.
import type { Queryable } from '../../platform/database/sql.ts';
import { queryRows } from '../../platform/database/sql.ts';
import { snapshotPointsSince } from './daily-sales.ts';
import { salesByDay, stockMoves, type SnapshotPoint, type StockMove } from './sales-estimate.ts';

export const ESTIMATE_METHOD =
  'Estimate: for each tracked variant, consecutive inventory snapshots are compared. A stock decrease of n is n units ' +
  "sold, valued at the earlier snapshot's price and counted on the UTC day of the later snapshot. A stock increase is " +
  'a restock, reported apart and never a negative sale; sales inside a restocked interval cannot be seen, so figures ' +
  'are a lower bound. Variants whose storefront hides stock count nothing. Not merchant-reported sales.';

export const NOT_ENOUGH_SNAPSHOTS =
  'Sales figures need at least 2 inventory snapshots of a variant; fewer exist so far. ' +
  'They appear after the next probe (scheduled, or POST /v1/signals/{domain}/probe).';

export interface VariantInfo {
  id: number;
  productHandle: string;
  variantId: string;
  sku: string | null;
  title: string;
  active: boolean;
}

export interface WatchSnapshots {
  points: SnapshotPoint[];
  variants: Map<number, VariantInfo>;
  /** at least one variant has 2 snapshots */
  ready: boolean;
}

export async function watchSnapshots(
  db: Queryable,
  signalId: number,
  from: Date,
): Promise<WatchSnapshots> {
  const [points, variants] = await Promise.all([
    snapshotPointsSince(db, signalId, from),
    queryRows<VariantInfo>(
      db,
      `SELECT id, product_handle AS "productHandle", variant_id AS "variantId", sku, title, active
         FROM tracked_variants WHERE signal_id = $1 AND variant_id NOT LIKE 'pending:%'`,
      [signalId],
    ),
  ]);
  const perVariant = new Map<number, number>();
  for (const p of points) perVariant.set(p.variantId, (perVariant.get(p.variantId) ?? 0) + 1);
  return {
    points,
    variants: new Map(variants.map((v) => [v.id, v])),
    ready: [...perVariant.values()].some((n) => n >= 2),
  };
}

/** An amount in the store's currency in USD: itself for a USD store, else null (never converted). */
export const usdOnly = <T extends number | null>(amount: T, currency: string): T | null =>
  currency === 'USD' ? amount : null;

/** The watched store's currency (ISO 4217); USD for a store that never said. */
export async function watchCurrency(db: Queryable, signalId: number): Promise<string> {
  const [row] = await queryRows<{ currency: string | null }>(
    db,
    'SELECT s.currency FROM signals w JOIN stores s ON s.id = w.store_id WHERE w.id = $1',
    [signalId],
  );
  return row?.currency?.trim() || 'USD';
}

export interface VariantSales {
  productHandle: string;
  variantId: string;
  sku: string | null;
  title: string;
  units: number;
  revenue: number;
  currency: string;
  revenueUsd: number | null;
}

export interface SalesTotals {
  days: number;
  units: number;
  revenue: number;
  revenuePerDay: number;
  currency: string;
  revenueUsd: number | null;
  unitsPerDay: number;
  revenuePerDayUsd: number | null;
  restocks: number;
  restockedUnits: number;
}

export interface DailyRevenue {
  day: string;
  units: number;
  revenue: number;
  currency: string;
  revenueUsd: number | null;
}

export interface WatchStats {
  ready: boolean;
  note: string | null;
  method: string;
  snapshots: number;
  probes: number;
  firstSnapshotAt: Date | null;
  lastSnapshotAt: Date | null;
  trackedVariants: number;
  variantsWithoutStock: number;
  sales: SalesTotals | null;
  topVariants: VariantSales[];
}

const round2 = (n: number) => Math.round(n * 100) / 100;
export const TOP_VARIANTS = 5;

function totalsOf(moves: readonly StockMove[], currency: string): SalesTotals {
  const days = salesByDay(moves);
  const units = moves.reduce((sum, m) => sum + m.unitsSold, 0);
  // the estimate's amounts are in the storefront's prices: the store's currency
  const revenue = round2(moves.reduce((sum, m) => sum + m.revenueUsd, 0));
  const revenuePerDay = days.length ? round2(revenue / days.length) : 0;
  const restocks = moves.filter((m) => m.restockedUnits > 0);
  return {
    days: days.length,
    units,
    revenue,
    revenuePerDay,
    currency,
    revenueUsd: usdOnly(revenue, currency),
    unitsPerDay: days.length ? round2(units / days.length) : 0,
    revenuePerDayUsd: usdOnly(revenuePerDay, currency),
    restocks: restocks.length,
    restockedUnits: restocks.reduce((sum, m) => sum + m.restockedUnits, 0),
  };
}

export async function watchStats(db: Queryable, signalId: number): Promise<WatchStats> {
  const snapshots = await watchSnapshots(db, signalId, new Date(0));
  const currency = await watchCurrency(db, signalId);
  const [counts] = await queryRows<{ probes: number; tracked: number; hidden: number }>(
    db,
    `SELECT (SELECT count(*)::int FROM signal_probes WHERE signal_id = $1 AND status = 'done' AND kind <> 'ads') AS probes,
            (SELECT count(*)::int FROM tracked_variants WHERE signal_id = $1 AND active) AS tracked,
            (SELECT count(*)::int FROM tracked_variants v WHERE v.signal_id = $1 AND v.active AND
               (SELECT s.stock FROM inventory_snapshots s WHERE s.tracked_variant_id = v.id ORDER BY s.taken_at DESC LIMIT 1) IS NULL
               AND EXISTS (SELECT 1 FROM inventory_snapshots s WHERE s.tracked_variant_id = v.id)) AS hidden`,
    [signalId],
  );
  const times = snapshots.points.map((p) => p.takenAt.getTime());
  const moves = stockMoves(snapshots.points);
  const byVariant = new Map<number, VariantSales>();
  for (const move of moves) {
    const info = snapshots.variants.get(move.variantId);
    if (!info) continue;
    const row = byVariant.get(move.variantId) ?? {
      productHandle: info.productHandle,
      variantId: info.variantId,
      sku: info.sku,
      title: info.title,
      units: 0,
      revenue: 0,
      currency,
      revenueUsd: null,
    };
    row.units += move.unitsSold;
    row.revenue = round2(row.revenue + move.revenueUsd);
    row.revenueUsd = usdOnly(row.revenue, currency);
    byVariant.set(move.variantId, row);
  }
  const hidden = counts?.hidden ?? 0;
  return {
    ready: snapshots.ready,
    note: !snapshots.ready
      ? NOT_ENOUGH_SNAPSHOTS
      : hidden > 0
        ? `${hidden} tracked variant(s) do not expose stock on the storefront; their sales cannot be estimated.`
        : null,
    method: ESTIMATE_METHOD,
    snapshots: snapshots.points.length,
    probes: counts?.probes ?? 0,
    firstSnapshotAt: times.length ? new Date(Math.min(...times)) : null,
    lastSnapshotAt: times.length ? new Date(Math.max(...times)) : null,
    trackedVariants: counts?.tracked ?? 0,
    variantsWithoutStock: hidden,
    sales: snapshots.ready ? totalsOf(moves, currency) : null,
    topVariants: snapshots.ready
      ? [...byVariant.values()]
          .filter((v) => v.units > 0)
          .sort((a, b) => b.units - a.units || b.revenue - a.revenue)
          .slice(0, TOP_VARIANTS)
      : [],
  };
}

export interface WatchDailySales {
  ready: boolean;
  note: string | null;
  method: string;
  from: Date;
  days: DailyRevenue[];
}

export async function watchDailySales(
  db: Queryable,
  signalId: number,
  from: Date,
): Promise<WatchDailySales> {
  const snapshots = await watchSnapshots(db, signalId, new Date(0));
  const fromDay = from.toISOString().slice(0, 10);
  const currency = await watchCurrency(db, signalId);
  const days = snapshots.ready
    ? salesByDay(stockMoves(snapshots.points))
        .filter((d) => d.day >= fromDay)
        .map((d) => ({
          day: d.day,
          units: d.units,
          revenue: d.revenueUsd,
          currency,
          revenueUsd: usdOnly(d.revenueUsd, currency),
        }))
    : [];
  return {
    ready: snapshots.ready,
    note: snapshots.ready ? null : NOT_ENOUGH_SNAPSHOTS,
    method: ESTIMATE_METHOD,
    from,
    days,
  };
}

export interface VariantInventory {
  productHandle: string;
  variantId: string;
  sku: string | null;
  title: string;
  active: boolean;
  startStock: number | null;
  endStock: number | null;
  startAt: Date;
  endAt: Date;
  unitsSold: number;
  restocks: number;
  restockedUnits: number;
  price: number;
  currency: string;
}

/** Per variant with a snapshot in the window [since, now]: first and last stock, restocks and units sold between them. */
export async function watchInventory(
  db: Queryable,
  signalId: number,
  since: Date,
): Promise<VariantInventory[]> {
  const snapshots = await watchSnapshots(db, signalId, since);
  const currency = await watchCurrency(db, signalId);
  const inWindow = snapshots.points.filter((p) => p.takenAt >= since);
  const series = new Map<number, SnapshotPoint[]>();
  for (const p of inWindow) series.set(p.variantId, [...(series.get(p.variantId) ?? []), p]);
  const rows: VariantInventory[] = [];
  for (const [id, points] of series) {
    const info = snapshots.variants.get(id);
    if (!info) continue;
    points.sort((a, b) => a.takenAt.getTime() - b.takenAt.getTime());
    const moves = stockMoves(points);
    const first = points[0]!;
    const last = points[points.length - 1]!;
    rows.push({
      productHandle: info.productHandle,
      variantId: info.variantId,
      sku: info.sku,
      title: info.title,
      active: info.active,
      startStock: first.stock,
      endStock: last.stock,
      startAt: first.takenAt,
      endAt: last.takenAt,
      unitsSold: moves.reduce((sum, m) => sum + m.unitsSold, 0),
      restocks: moves.filter((m) => m.restockedUnits > 0).length,
      restockedUnits: moves.reduce((sum, m) => sum + m.restockedUnits, 0),
      price: last.price,
      currency,
    });
  }
  return rows.sort(
    (a, b) =>
      a.productHandle.localeCompare(b.productHandle) ||
      a.title.localeCompare(b.title) ||
      a.variantId.localeCompare(b.variantId),
  );
}
