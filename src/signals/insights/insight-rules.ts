// The insight rules a probe applies (pure, unit-tested). Insights are pulled from the insights
// routes, never pushed.
// - restock: a tracked variant's stock rose since its previous snapshot (one card per variant).
// - price_change: a tracked variant's price differs from its previous snapshot.
// - sales_spike: the probe's UTC day has estimated units >= SPIKE_FACTOR x the median of the
//   trailing SPIKE_TRAILING_DAYS days that have an estimate (at least SPIKE_MIN_TRAILING_DAYS of
//   them) and at least SPIKE_MIN_UNITS units; one card per watch and day.
import type { DailySales } from '../sales/sales-estimate.ts';
import { usdOnly } from '../sales/watch-sales.ts';

export const INSIGHT_KINDS = [
  'sales_spike',
  'restock',
  'ad_new_campaign',
  'app_change',
  'price_change',
] as const;
export type InsightKind = (typeof INSIGHT_KINDS)[number];

export const SPIKE_FACTOR = 2;
export const SPIKE_MIN_UNITS = 5;
export const SPIKE_TRAILING_DAYS = 7;
export const SPIKE_MIN_TRAILING_DAYS = 3;

export interface NewInsight {
  kind: InsightKind;
  title: string;
  body: string;
  data: Record<string, unknown>;
}

export interface VariantObservation {
  productHandle: string;
  variantId: string;
  sku: string | null;
  title: string;
  price: number;
  stock: number | null;
}

export interface PreviousSnapshot {
  price: number;
  stock: number | null;
  takenAt: Date;
}

const money = (value: number) => value.toFixed(2);

/** restock and price_change cards of one variant's new reading against its previous snapshot. */
export function variantInsights(
  domain: string,
  now: VariantObservation,
  previous: PreviousSnapshot | undefined,
): NewInsight[] {
  if (!previous) return [];
  const variant = {
    domain,
    productHandle: now.productHandle,
    variantId: now.variantId,
    sku: now.sku,
    title: now.title,
  };
  const cards: NewInsight[] = [];
  if (previous.stock !== null && now.stock !== null && now.stock > previous.stock) {
    const units = now.stock - previous.stock;
    cards.push({
      kind: 'restock',
      title: `${now.title} restocked on ${domain} (+${units} units)`,
      body: `Stock of ${now.title} rose from ${previous.stock} to ${now.stock} since the snapshot of ${previous.takenAt.toISOString()}.`,
      data: {
        ...variant,
        fromStock: previous.stock,
        toStock: now.stock,
        units,
        since: previous.takenAt.toISOString(),
      },
    });
  }
  if (now.price !== previous.price) {
    const changePct =
      previous.price > 0
        ? Math.round(((now.price - previous.price) / previous.price) * 1000) / 10
        : null;
    cards.push({
      kind: 'price_change',
      title: `${now.title} on ${domain}: price ${money(previous.price)} -> ${money(now.price)}`,
      body:
        `The price of ${now.title} changed from ${money(previous.price)} to ${money(now.price)}` +
        `${changePct === null ? '' : ` (${changePct > 0 ? '+' : ''}${changePct}%)`} since the snapshot of ${previous.takenAt.toISOString()}.`,
      data: {
        ...variant,
        oldPrice: previous.price,
        newPrice: now.price,
        changePct,
        since: previous.takenAt.toISOString(),
      },
    });
  }
  return cards;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const dayBefore = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

/** The sales_spike card of `day`, or null. `days`: the watch's daily estimates (any order). */
/** `currency`: the store's (ISO 4217), which the estimate's amounts are in; revenueUsd only for USD, never converted. */
export function salesSpike(
  domain: string,
  days: readonly DailySales[],
  day: string,
  currency = 'USD',
): NewInsight | null {
  const today = days.find((d) => d.day === day);
  if (!today) return null;
  const first = dayBefore(day, SPIKE_TRAILING_DAYS);
  const trailing = days.filter((d) => d.day >= first && d.day < day);
  if (trailing.length < SPIKE_MIN_TRAILING_DAYS) return null;
  const baseline = median(trailing.map((d) => d.units));
  if (
    today.units < SPIKE_MIN_UNITS ||
    today.units < SPIKE_FACTOR * baseline ||
    today.units <= baseline
  )
    return null;
  return {
    kind: 'sales_spike',
    title: `Sales spike on ${domain}: ${today.units} units on ${day}`,
    body:
      `Estimated ${today.units} units (${money(today.revenueUsd)} ${currency} revenue) on ${day}, against a median of ${baseline} ` +
      `units a day over the ${trailing.length} previous days with an estimate. Sales are estimated from stock decreases.`,
    data: {
      domain,
      day,
      units: today.units,
      revenue: today.revenueUsd,
      currency,
      revenueUsd: usdOnly(today.revenueUsd, currency),
      trailingMedianUnits: baseline,
      trailingDays: trailing.length,
      factor: SPIKE_FACTOR,
    },
  };
}
