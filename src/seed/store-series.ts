// Time series of one store: the trend and noise of its traffic, 180 daily history snapshots ending
// at its current modeled values, and 24 months of third-party panel traffic with its channel mix.
import { rateHistory, type SteadyRatingInputs } from '../stores/model/rating.ts';
import { revenueBand, type RevenueEstimate } from '../stores/model/revenue.ts';
import type { Random } from './random.ts';
import { HISTORY_DAYS, TRAFFIC_MONTHS } from './seed-context.ts';
import type { SeededHistory, SeededTrafficMonth } from './seeded-types.ts';

const INT32_MAX = 2_147_483_647;
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));
const round1 = (n: number) => Math.round(n * 10) / 10;

/** log-change of visits over the 180 days: mostly mild, some strong movers either way */
export function trendSlope(rng: Random): number {
  const roll = rng.next();
  const slope =
    roll < 0.8 ? 0.05 + 0.25 * rng.normal() : roll < 0.95 ? 0.7 * rng.normal() : 0.4 + rng.normal();
  return clamp(slope, -2.3, 2.3);
}

/** AR(1) noise: the day-to-day wobble of a rolling monthly figure */
function smoothNoise(rng: Random, length: number): Float64Array {
  const noise = new Float64Array(length);
  let value = 0;
  for (let i = 0; i < length; i++) {
    value = 0.85 * value + 0.012 * rng.normal();
    noise[i] = value;
  }
  return noise;
}

export interface HistoryInputs {
  trend: number;
  monthlyVisits: number;
  revenue: RevenueEstimate;
  productCount: number;
  /** history days on which current products appeared / removed ones disappeared */
  addedDays: readonly number[];
  removedDays: readonly number[];
  steadyRating: SteadyRatingInputs;
}

/**
 * 180 days ending today. Day by day visits follow the trend and noise and end exactly at today's
 * modeled visits; the revenue band and rating of each day come from the same models applied to
 * that day's visits and catalog size, so the last day equals the store's current columns.
 */
export function dailyHistory(rng: Random, input: HistoryInputs): SeededHistory {
  const days = HISTORY_DAYS;
  const last = days - 1;
  const noise = smoothNoise(rng, days);
  const countDelta = new Int32Array(days + 1);
  for (const d of input.addedDays) countDelta[d] = countDelta[d]! - 1;
  for (const d of input.removedDays) countDelta[d] = countDelta[d]! + 1;

  const visits = new Int32Array(days);
  const revenueLow = new Int32Array(days);
  const revenueHigh = new Int32Array(days);
  const productCount = new Int32Array(days);
  const band = { lowPct: input.revenue.conversionLowPct, highPct: input.revenue.conversionHighPct };
  const aov = input.revenue.averageOrderValueUsd;
  let count = input.productCount;
  for (let d = last; d >= 0; d--) {
    if (d < last) count += countDelta[d + 1]!;
    const v =
      d === last
        ? input.monthlyVisits
        : Math.round(
            input.monthlyVisits *
              Math.exp((input.trend * (d - last)) / last + noise[d]! - noise[last]!),
          );
    const dayBand = d === last ? input.revenue : revenueBand(v, band, aov);
    visits[d] = Math.min(INT32_MAX, v);
    revenueLow[d] = Math.min(INT32_MAX, dayBand.low);
    revenueHigh[d] = Math.min(INT32_MAX, dayBand.high);
    productCount[d] = count;
  }
  return {
    visits,
    revenueLow,
    revenueHigh,
    rating: rateHistory(input.steadyRating, visits, productCount),
    productCount,
  };
}

export interface TrafficMix {
  organicPct: number;
  paidPct: number;
  socialPct: number;
  directPct: number;
  referralPct: number;
}

/** shares of traffic by channel in percent, adding up to 100 (direct takes the rounding) */
function normalizeMix(
  organic: number,
  paid: number,
  social: number,
  referral: number,
  direct: number,
): TrafficMix {
  const scale = 100 / (organic + paid + social + referral + direct);
  const organicPct = round1(organic * scale);
  const paidPct = round1(paid * scale);
  const socialPct = round1(social * scale);
  const referralPct = round1(referral * scale);
  return {
    organicPct,
    paidPct,
    socialPct,
    referralPct,
    directPct: Math.max(0, round1(100 - organicPct - paidPct - socialPct - referralPct)),
  };
}

/** the latest third-party channel mix; dropshippers buy more of their traffic */
export function trafficMix(rng: Random, dropshipping: boolean): TrafficMix {
  return normalizeMix(
    clamp(38 + 10 * rng.normal(), 10, 70),
    dropshipping ? clamp(30 + 10 * rng.normal(), 5, 60) : clamp(12 + 6 * rng.normal(), 0, 40),
    clamp((dropshipping ? 20 : 14) + 6 * rng.normal(), 1, 50),
    clamp(6 + 3 * rng.normal(), 0, 20),
    clamp(30 + 8 * rng.normal(), 5, 60),
  );
}

/** 24 monthly panel figures ending at the current one; months before the history follow a damped trend */
export function trafficSeries(
  rng: Random,
  months: readonly string[],
  latestVisits: number,
  trend: number,
  latestMix: TrafficMix,
): SeededTrafficMonth[] {
  const series: SeededTrafficMonth[] = [];
  for (let i = 0; i < months.length; i++) {
    const month = months[i]!;
    const monthsBack = TRAFFIC_MONTHS - 1 - i;
    if (monthsBack === 0) {
      series.push({ month, visits: latestVisits, ...latestMix });
      continue;
    }
    const days = monthsBack * 30.44;
    const effectiveDays = Math.min(days, HISTORY_DAYS) + 0.3 * Math.max(0, days - HISTORY_DAYS);
    const visits = Math.round(
      latestVisits * Math.exp((-trend * effectiveDays) / (HISTORY_DAYS - 1) + 0.05 * rng.normal()),
    );
    const mix = normalizeMix(
      Math.max(0.5, latestMix.organicPct + 1.5 * rng.normal()),
      Math.max(0, latestMix.paidPct + 1.5 * rng.normal()),
      Math.max(0.5, latestMix.socialPct + 1.5 * rng.normal()),
      Math.max(0, latestMix.referralPct + 1.5 * rng.normal()),
      Math.max(1, latestMix.directPct + 1.5 * rng.normal()),
    );
    series.push({ month, visits: Math.min(INT32_MAX, visits), ...mix });
  }
  return series;
}
