// Growth between two observations, the figure behind movers (visits_change_pct, revenue_change_pct)
// and price changes (change_pct).

export const GROWTH_METHOD =
  'Percent change = (current - base) / base x 100, rounded to 2 decimals. It is null when the base ' +
  'is 0 (or not a finite number): growth from nothing has no percentage. Movers compare the value ' +
  'of a store 30 days ago (its daily history) with its current value.';

export function percentChange(base: number, current: number): number | null {
  if (!Number.isFinite(base) || !Number.isFinite(current) || base === 0) return null;
  return Math.round(((current - base) / Math.abs(base)) * 10_000) / 100;
}
