// The sales estimate of a watch, as a pure function of its inventory snapshots (unit-tested).
// Method (an estimate, documented in docs.md): for each tracked variant, compare consecutive
// snapshots. A stock decrease is that many units sold, valued at the earlier snapshot's price
// (the price shoppers saw while the stock fell) and counted on the UTC day of the later snapshot.
// A stock increase is a restock of that many units, kept apart and never a negative sale; sales
// hidden inside a restocked interval are unobservable, so the estimate is a lower bound. A pair
// where either snapshot has no stock (the store does not expose inventory) counts nothing.

export interface SnapshotPoint {
  variantId: number;
  takenAt: Date;
  /** units in stock, null when the storefront does not expose inventory */
  stock: number | null;
  price: number;
}

/** What one variant did between two consecutive snapshots. */
export interface StockMove {
  variantId: number;
  /** UTC day (YYYY-MM-DD) of the later snapshot, the day the move is counted on */
  day: string;
  unitsSold: number;
  revenueUsd: number;
  restockedUnits: number;
}

export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

const roundCents = (usd: number): number => Math.round(usd * 100) / 100;

/** Moves between consecutive snapshots of each variant; `points` in any order. */
export function stockMoves(points: readonly SnapshotPoint[]): StockMove[] {
  const byVariant = new Map<number, SnapshotPoint[]>();
  for (const point of points) {
    const series = byVariant.get(point.variantId) ?? [];
    series.push(point);
    byVariant.set(point.variantId, series);
  }
  const moves: StockMove[] = [];
  for (const [variantId, series] of byVariant) {
    series.sort((a, b) => a.takenAt.getTime() - b.takenAt.getTime());
    for (let i = 1; i < series.length; i += 1) {
      const before = series[i - 1]!;
      const after = series[i]!;
      if (before.stock === null || after.stock === null) continue;
      const change = after.stock - before.stock;
      const unitsSold = change < 0 ? -change : 0;
      moves.push({
        variantId,
        day: utcDay(after.takenAt),
        unitsSold,
        revenueUsd: roundCents(unitsSold * before.price),
        restockedUnits: Math.max(change, 0),
      });
    }
  }
  return moves;
}

export interface DailySales {
  day: string /* YYYY-MM-DD */;
  units: number;
  revenueUsd: number;
}

/** Estimated units and revenue per UTC day, oldest first; days without an observed interval are absent. */
export function salesByDay(moves: readonly StockMove[]): DailySales[] {
  const days = new Map<string, DailySales>();
  for (const move of moves) {
    const day = days.get(move.day) ?? { day: move.day, units: 0, revenueUsd: 0 };
    day.units += move.unitsSold;
    day.revenueUsd = roundCents(day.revenueUsd + move.revenueUsd);
    days.set(move.day, day);
  }
  return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
}
