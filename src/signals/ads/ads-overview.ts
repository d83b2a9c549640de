// GET /v1/signals/{domain}/ads/overview?days (Signal.adsOverview): the store's creatives running
// per day and network beside the watch's daily sales estimate over the last `days` days (today
// included, UTC), and the sales lift after ad launches (method in ads-lift.ts). Sales need at
// least 2 inventory snapshots; before that the days carry no sales and the lift is null, with a note.
// Revenue is in the store's currency, named in `currency`; the USD fields only for a USD store.
import { queryRows, type Queryable } from '../../platform/database/sql.ts';
import { dailySales } from '../sales/daily-sales.ts';
import { usdOnly, watchCurrency } from '../sales/watch-sales.ts';
import type { WatchRecord } from '../watch-record.ts';
import {
  addDays,
  dayOf,
  dayRange,
  LIFT_WINDOW_DAYS,
  overviewDays,
  salesLift,
  type AdRun,
  type OverviewDay,
  type SalesLift,
} from './ads-lift.ts';

export const DEFAULT_OVERVIEW_DAYS = 30;
export const MAX_OVERVIEW_DAYS = 180;
export const MIN_SNAPSHOTS = 2;

export const LIFT_METHOD =
  `Estimate. A creative runs from the day it was first seen (the library's first-shown day when given) through the day it ` +
  `was last seen, or through today while active. A day is "after a launch" when a creative was first seen on it or in the ` +
  `${LIFT_WINDOW_DAYS - 1} days before. Only days with a sales estimate count. Lift = mean daily units (revenue) on days ` +
  `after a launch / mean on the other days - 1, in percent; null when a group is empty or the other days sold nothing. ` +
  `Sales are the watch's inventory-based estimate. A correlation over few days, not a causal measure.`;

/** A day's revenue in the store's currency; revenueUsd the same for a USD store, else null. */
export type OverviewDayInCurrency = OverviewDay & { revenue: number | null };
export type SalesLiftInCurrency = SalesLift & {
  meanRevenueAfterLaunch: number | null;
  meanRevenueOtherDays: number | null;
};

export interface AdsOverview {
  days: number;
  from: string;
  to: string;
  snapshots: number;
  method: string;
  note: string | null;
  /** ISO 4217: the store's currency, of every revenue figure */
  currency: string;
  daily: OverviewDayInCurrency[];
  lift: SalesLiftInCurrency | null;
}

export async function adsOverview(
  pool: Queryable,
  watch: WatchRecord,
  days: number,
  now: Date,
): Promise<AdsOverview> {
  const to = dayOf(now);
  const from = addDays(to, -(days - 1));
  const [snapshots, runs] = await Promise.all([
    snapshotCount(pool, watch.id),
    adRuns(pool, watch.storeId, addDays(from, -(LIFT_WINDOW_DAYS - 1)), to),
  ]);
  const enough = snapshots >= MIN_SNAPSHOTS;
  const sales = enough ? await dailySales(pool, watch.id, new Date(`${from}T00:00:00Z`)) : [];
  const daily = overviewDays(dayRange(from, to), runs, sales);
  const lift = enough ? salesLift(daily) : null;
  let note: string | null = null;
  if (!enough) {
    note = `Sales need at least ${MIN_SNAPSHOTS} inventory snapshots (this watch has ${snapshots}); the lift appears after the next probe.`;
  } else if (lift && (lift.daysAfterLaunch === 0 || lift.otherDays === 0)) {
    note =
      lift.daysAfterLaunch === 0
        ? 'No day with a sales estimate follows an ad launch yet: no lift to measure.'
        : 'Every day with a sales estimate follows an ad launch: nothing to compare with.';
  }
  // the estimate's amounts are the storefront's prices: the store's currency, never converted
  const currency = await watchCurrency(pool, watch.id);
  return {
    days,
    from,
    to,
    snapshots,
    method: LIFT_METHOD,
    note,
    currency,
    daily: daily.map((d) => ({
      ...d,
      revenue: d.revenueUsd,
      revenueUsd: usdOnly(d.revenueUsd, currency),
    })),
    lift: lift && {
      ...lift,
      meanRevenueAfterLaunch: lift.meanRevenueAfterLaunchUsd,
      meanRevenueOtherDays: lift.meanRevenueOtherDaysUsd,
      meanRevenueAfterLaunchUsd: usdOnly(lift.meanRevenueAfterLaunchUsd, currency),
      meanRevenueOtherDaysUsd: usdOnly(lift.meanRevenueOtherDaysUsd, currency),
    },
  };
}

/** Inventory snapshots of the watch, counted as probes that took any (one probe snapshots every tracked variant). */
async function snapshotCount(pool: Queryable, signalId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    pool,
    `SELECT count(DISTINCT s.probe_id)::int AS n FROM inventory_snapshots s JOIN tracked_variants v ON v.id = s.tracked_variant_id WHERE v.signal_id = $1`,
    [signalId],
  );
  return row?.n ?? 0;
}

async function adRuns(
  pool: Queryable,
  storeId: number,
  from: string,
  to: string,
): Promise<AdRun[]> {
  return queryRows<AdRun>(
    pool,
    `SELECT network, first_day AS "firstDay", last_day AS "lastDay" FROM (
       SELECT network, to_char(first_seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS first_day,
              CASE WHEN active THEN $3 ELSE to_char(last_seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') END AS last_day
         FROM ads WHERE store_id = $1) r
      WHERE last_day >= $2 AND first_day <= $3`,
    [storeId, from, to],
  );
}
