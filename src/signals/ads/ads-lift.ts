// Ads versus SKU sales, as pure functions of the creatives' run days and the daily sales estimate
// (unit-tested). Method, an estimate and labelled so:
// - a creative runs from the day it was first seen (the library's first-shown day when it gives
//   one) through the day it was last seen, or through today while it is still active;
// - a day is "after a launch" when any creative of the store was first seen on that day or in the
//   LIFT_WINDOW_DAYS - 1 days before it;
// - only days with a sales estimate count (no estimate is no observation, not zero sales);
// - lift = mean daily units on days after a launch / mean daily units on the other days - 1, in
//   percent, with the day counts of both groups; the same for revenue. Null when either group is
//   empty or the other days sold nothing. Correlation over few days, not a causal measure.
import { AD_NETWORKS, type AdNetwork } from './ad-library.ts';
import type { DailySales } from '../sales/daily-sales.ts';

export const LIFT_WINDOW_DAYS = 7;

export interface AdRun {
  network: AdNetwork;
  /** YYYY-MM-DD */
  firstDay: string;
  /** YYYY-MM-DD, inclusive */
  lastDay: string;
}

export type NetworkCounts = Record<AdNetwork, number> & { total: number };

export interface OverviewDay {
  day: string;
  activeAds: NetworkCounts;
  newAds: NetworkCounts;
  afterLaunch: boolean;
  /** null: no sales estimate for that day */
  units: number | null;
  revenueUsd: number | null;
}

export interface SalesLift {
  windowDays: number;
  daysAfterLaunch: number;
  otherDays: number;
  meanUnitsAfterLaunch: number | null;
  meanUnitsOtherDays: number | null;
  unitsLiftPercent: number | null;
  meanRevenueAfterLaunchUsd: number | null;
  meanRevenueOtherDaysUsd: number | null;
  revenueLiftPercent: number | null;
}

const DAY_MS = 86_400_000;
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);
export const addDays = (day: string, n: number): string =>
  dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));

/** The days from `first` through `last`, inclusive. */
export function dayRange(first: string, last: string): string[] {
  const days: string[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) days.push(day);
  return days;
}

const zeroCounts = (): NetworkCounts => ({
  ...(Object.fromEntries(AD_NETWORKS.map((n) => [n, 0])) as Record<AdNetwork, number>),
  total: 0,
});

export function overviewDays(
  days: readonly string[],
  runs: readonly AdRun[],
  sales: readonly DailySales[],
  windowDays = LIFT_WINDOW_DAYS,
): OverviewDay[] {
  const salesByDay = new Map(sales.map((s) => [s.day, s]));
  const launchDays = new Set(runs.map((r) => r.firstDay));
  return days.map((day) => {
    const activeAds = zeroCounts();
    const newAds = zeroCounts();
    for (const run of runs) {
      if (run.firstDay <= day && day <= run.lastDay) {
        activeAds[run.network] += 1;
        activeAds.total += 1;
      }
      if (run.firstDay === day) {
        newAds[run.network] += 1;
        newAds.total += 1;
      }
    }
    let afterLaunch = false;
    for (let back = 0; back < windowDays && !afterLaunch; back++)
      afterLaunch = launchDays.has(addDays(day, -back));
    const estimate = salesByDay.get(day);
    return {
      day,
      activeAds,
      newAds,
      afterLaunch,
      units: estimate?.units ?? null,
      revenueUsd: estimate?.revenueUsd ?? null,
    };
  });
}

const mean = (values: number[]): number | null =>
  values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
const round2 = (value: number | null): number | null =>
  value === null ? null : Math.round(value * 100) / 100;
const liftPercent = (after: number | null, other: number | null): number | null =>
  after === null || other === null || other === 0 ? null : round2(((after - other) / other) * 100);

export function salesLift(days: readonly OverviewDay[], windowDays = LIFT_WINDOW_DAYS): SalesLift {
  const observed = days.filter((d) => d.units !== null);
  const after = observed.filter((d) => d.afterLaunch);
  const other = observed.filter((d) => !d.afterLaunch);
  const meanUnitsAfter = mean(after.map((d) => d.units!));
  const meanUnitsOther = mean(other.map((d) => d.units!));
  const meanRevenueAfter = mean(after.map((d) => d.revenueUsd ?? 0));
  const meanRevenueOther = mean(other.map((d) => d.revenueUsd ?? 0));
  return {
    windowDays,
    daysAfterLaunch: after.length,
    otherDays: other.length,
    meanUnitsAfterLaunch: round2(meanUnitsAfter),
    meanUnitsOtherDays: round2(meanUnitsOther),
    unitsLiftPercent: liftPercent(meanUnitsAfter, meanUnitsOther),
    meanRevenueAfterLaunchUsd: round2(meanRevenueAfter),
    meanRevenueOtherDaysUsd: round2(meanRevenueOther),
    revenueLiftPercent: liftPercent(meanRevenueAfter, meanRevenueOther),
  };
}
