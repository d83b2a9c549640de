// The re-observation policy: when the scheduler next reads a store's storefront. Pure functions of
// what the database keeps per store (observation_schedule), documented in docs.md ("Crawler"):
//
// - Popularity sets the base interval, from the store's modeled monthly visits: 1 day at
//   100,000 visits or more, 3 days at 10,000 or more, 7 days below (the long tail weekly).
// - Change frequency scales it: change_rate is a moving average (weight CHANGE_RATE_WEIGHT) of
//   whether each observation found a change (a price, a SKU, an app, the theme); the interval is
//   multiplied by 2^(1 - 2·rate), from x2 for a store that never changes to x1/2 for one that
//   changes every time, and kept within MIN_INTERVAL_HOURS .. MAX_INTERVAL_HOURS, so every store
//   is seen at least weekly and none more than twice a day.
// - Spread: every next time is jittered by ±JITTER of its interval, so stores observed together
//   (an import, a first start) drift apart instead of coming due in a herd.
// - Failures back off: FAILURE_BACKOFF_MINUTES doubled per consecutive failure, never beyond the
//   store's interval, and never before a Retry-After the store sent.
// - Vanishing: after VANISH_AFTER_FAILURES failures saying the storefront is gone (its name does
//   not resolve, homepage or products.json not found, no longer Shopify, moved to another host)
//   with no good observation between them (a busy or unreachable answer in between neither counts
//   nor resets), the store is `vanished`: it leaves search results and grouped rows, stays
//   readable by its domain with its history, and is looked at again every VANISHED_RECHECK_HOURS;
//   one good observation makes it active again. Nothing is ever deleted.

export const POPULARITY_TIERS: ReadonlyArray<{ minVisits: number; intervalHours: number }> = [
  { minVisits: 100_000, intervalHours: 24 },
  { minVisits: 10_000, intervalHours: 72 },
  { minVisits: 0, intervalHours: 168 },
];
export const MIN_INTERVAL_HOURS = 12;
export const MAX_INTERVAL_HOURS = 168;
export const CHANGE_RATE_WEIGHT = 0.3;
/** a store never observed yet is assumed to change half the time */
export const INITIAL_CHANGE_RATE = 0.5;
export const JITTER = 0.1;
export const FAILURE_BACKOFF_MINUTES = 15;
export const VANISH_AFTER_FAILURES = 3;
export const VANISHED_RECHECK_HOURS = 168;

const HOUR_MS = 3_600_000;

export function baseIntervalHours(monthlyVisits: number): number {
  return POPULARITY_TIERS.find((tier) => monthlyVisits >= tier.minVisits)!.intervalHours;
}

/** The interval between two observations of a store with these visits and this change rate. */
export function observationIntervalHours(monthlyVisits: number, changeRate: number): number {
  const rate = Math.min(1, Math.max(0, changeRate));
  const hours = baseIntervalHours(monthlyVisits) * 2 ** (1 - 2 * rate);
  return Math.min(MAX_INTERVAL_HOURS, Math.max(MIN_INTERVAL_HOURS, hours));
}

/** The change rate after an observation that found changes (or not). */
export const nextChangeRate = (rate: number, changed: boolean): number =>
  (1 - CHANGE_RATE_WEIGHT) * rate + CHANGE_RATE_WEIGHT * (changed ? 1 : 0);

/** `now` plus `hours`, jittered by ±JITTER of it; `random` in [0, 1). */
export const jittered = (now: Date, hours: number, random: () => number = Math.random): Date =>
  new Date(now.getTime() + hours * HOUR_MS * (1 + JITTER * (2 * random() - 1)));

/** When to try again after the `failures`-th consecutive failure of a store observed every `intervalHours`. */
export function retryAt(
  now: Date,
  failures: number,
  intervalHours: number,
  retryAfterSeconds?: number,
): Date {
  const backoffMs = Math.min(
    intervalHours * HOUR_MS,
    FAILURE_BACKOFF_MINUTES * 60_000 * 2 ** Math.max(0, failures - 1),
  );
  return new Date(now.getTime() + Math.max(backoffMs, (retryAfterSeconds ?? 0) * 1000));
}

export type Presence = 'active' | 'failing' | 'vanished';

/** A store's presence after a failure, with `goneFailures` gone-saying failures since its last good observation. */
export const presenceAfterFailure = (goneFailures: number): Presence =>
  goneFailures >= VANISH_AFTER_FAILURES ? 'vanished' : 'failing';
