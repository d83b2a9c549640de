// The sales estimate from inventory snapshots: decreases are sales at the earlier price, counted on
// the later snapshot's UTC day; increases are restocks, never negative sales; hidden stock counts nothing.
import { describe, expect, it } from 'vitest';
import {
  salesByDay,
  stockMoves,
  type SnapshotPoint,
} from '../../src/signals/sales/sales-estimate.ts';

const at = (iso: string) => new Date(iso);
const point = (
  variantId: number,
  iso: string,
  stock: number | null,
  price: number,
): SnapshotPoint => ({ variantId, takenAt: at(iso), stock, price });

describe('sales estimate', () => {
  it('counts stock decreases as units at the earlier price, on the later snapshot’s UTC day', () => {
    const moves = stockMoves([
      point(1, '2030-01-01T10:00:00Z', 50, 20),
      point(1, '2030-01-02T10:00:00Z', 45, 20),
      point(2, '2030-01-01T10:00:00Z', 30, 12.5),
      point(2, '2030-01-02T10:00:00Z', 27, 10),
    ]);
    expect(salesByDay(moves)).toEqual([{ day: '2030-01-02', units: 8, revenueUsd: 137.5 }]);
  });

  it('keeps restocks apart and never counts them as negative sales', () => {
    const moves = stockMoves([
      point(1, '2030-01-01T10:00:00Z', 50, 20),
      point(1, '2030-01-02T10:00:00Z', 65, 20),
      point(1, '2030-01-03T10:00:00Z', 60, 20),
    ]);
    expect(moves.map((m) => [m.day, m.unitsSold, m.restockedUnits])).toEqual([
      ['2030-01-02', 0, 15],
      ['2030-01-03', 5, 0],
    ]);
    expect(salesByDay(moves)).toEqual([
      { day: '2030-01-02', units: 0, revenueUsd: 0 },
      { day: '2030-01-03', units: 5, revenueUsd: 100 },
    ]);
  });

  it('orders snapshots itself and sums several intervals ending on the same day', () => {
    const moves = stockMoves([
      point(1, '2030-01-02T18:00:00Z', 40, 10),
      point(1, '2030-01-02T06:00:00Z', 48, 10),
      point(1, '2030-01-01T23:00:00Z', 50, 10),
    ]);
    expect(salesByDay(moves)).toEqual([{ day: '2030-01-02', units: 10, revenueUsd: 100 }]);
  });

  it('counts nothing across a snapshot whose stock is hidden', () => {
    const moves = stockMoves([
      point(1, '2030-01-01T10:00:00Z', null, 20),
      point(1, '2030-01-02T10:00:00Z', null, 20),
      point(2, '2030-01-01T10:00:00Z', 10, 5),
      point(2, '2030-01-02T10:00:00Z', null, 5),
    ]);
    expect(moves).toEqual([]);
    expect(salesByDay(moves)).toEqual([]);
  });

  it('needs two snapshots of a variant for any figure', () => {
    expect(
      stockMoves([point(1, '2030-01-01T10:00:00Z', 10, 5), point(2, '2030-01-01T10:00:00Z', 3, 5)]),
    ).toEqual([]);
  });
});
