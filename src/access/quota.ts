// Charging a request against its limits: the per-minute rate and per-key daily ceiling of the key,
// and the account's daily bucket(s) shared with the web app. All counters are incremented at once
// (atomically each, in Redis or in process); if any is past its limit, every increment of this
// request is taken back and the request is refused, so a refused request costs nothing.
//
// Counter keys (after QUOTA_REDIS_PREFIX + ':'), the contract with the web app:
//   day:<YYYY-MM-DD>:account:<accountExternalId>:<bucket>   account bucket, UTC day: shared with the web app,
//                                                          which INCRs the same key for its own searches
//   day:<YYYY-MM-DD>:key:<keyId>                           per-key daily ceiling
//   minute:key:<keyId> | minute:client:<address>           per-minute rate, a fixed 60 s window
//   minute:unauthenticated:<address>                       requests without a valid credential, per address
// Values are plain integers (INCRBY); daily keys expire an hour after their UTC day ends.
import { ApiError } from '../platform/errors.ts';
import type { CounterReading, Counters, MaybePromise } from './counters.ts';
import type { Answer } from './provisional-charges.ts';
import type { PlanLimits, Plans, QuotaBucket } from './plans.ts';
import type { DataPrincipal } from './principal.ts';

export type PolicyName = 'perMinute' | 'perKeyDaily' | 'unauthenticated' | QuotaBucket;

export interface LimitState {
  policy: PolicyName;
  limit: number;
  remaining: number;
  /** seconds until this limit's window renews */
  resetSeconds: number;
  /** the window's length in seconds (60 or a day) */
  windowSeconds: number;
}

/** What one request (or one GraphQL operation) costs: units in total and per bucket. */
export interface Charge {
  units: number;
  buckets: Partial<Record<QuotaBucket, number>>;
  /** counts against the per-minute rate alone (MCP's protocol messages): not the per-key ceiling nor a bucket */
  rateOnly?: boolean;
}

export class RateLimitedError extends ApiError {
  constructor(
    readonly exceeded: LimitState,
    readonly limits: LimitState[],
  ) {
    const window = exceeded.windowSeconds === MINUTE ? 'per-minute rate' : 'daily quota';
    super(
      'rate_limited',
      `The ${window} "${exceeded.policy}" (${exceeded.limit}) is used up. Retry after ${exceeded.resetSeconds} seconds.`,
      {
        bucket: exceeded.policy,
        limit: exceeded.limit,
        window: exceeded.windowSeconds === MINUTE ? 'minute' : 'day',
        retryAfter: exceeded.resetSeconds,
      },
      exceeded.resetSeconds,
    );
  }
}

const MINUTE = 60;
const DAY = 86_400;
const DAILY_KEY_GRACE_SECONDS = 3_600;

interface Meter {
  policy: PolicyName;
  key: string;
  limit: number;
  units: number;
  ttlSeconds: number;
  windowSeconds: number;
}

const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> => value instanceof Promise;

const DAY_MS = DAY * 1000;

/** The UTC day last asked about: every charge asks for the day and its end, worked out again only when the day changes. */
let lastDay = { startMs: 0, endMs: 0, day: '' };

function utcDayOf(now: Date): { endMs: number; day: string } {
  const ms = now.getTime();
  if (ms < lastDay.startMs || ms >= lastDay.endMs) {
    const startMs = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
    lastDay = { startMs, endMs: startMs + DAY_MS, day: now.toISOString().slice(0, 10) };
  }
  return lastDay;
}

export const utcDay = (now: Date) => utcDayOf(now).day;

export function secondsUntilUtcMidnight(now: Date): number {
  return Math.max(1, Math.ceil((utcDayOf(now).endMs - now.getTime()) / 1000));
}

export const accountBucketKey = (day: string, accountExternalId: string, bucket: QuotaBucket) =>
  `day:${day}:account:${accountExternalId}:${bucket}`;

export class Quotas {
  constructor(
    private readonly counters: Counters,
    readonly plans: Plans,
    private readonly now: () => Date = () => new Date(),
  ) {}

  planOf(principal: DataPrincipal): PlanLimits {
    return this.plans[principal.kind === 'key' ? principal.plan : 'openDev'];
  }

  /**
   * Counts `charge` against every limit of the principal; throws RateLimitedError past any of them.
   * With in-process counters it answers (or throws) at once; with Redis's, through a promise, and
   * the charge stays provisional until `answer` closes: refunded if this process dies before.
   */
  charge(principal: DataPrincipal, charge: Charge, answer?: Answer): MaybePromise<LimitState[]> {
    const now = this.now();
    const meters = this.metersFor(principal, charge, now);
    if (this.counters.provisional) {
      return this.counters.provisional
        .charge(meters, answer)
        .then(({ readings, takenBack }) => this.limitsOrRefusal(meters, readings, now, takenBack));
    }
    const readings = meters.map((m) => this.counters.add(m.key, m.units, m.ttlSeconds));
    if (readings.some(isPromise))
      return Promise.all(readings).then((settled) => this.limitsOrRefusal(meters, settled, now));
    return this.limitsOrRefusal(meters, readings as CounterReading[], now);
  }

  /** The limits as this request leaves them, or (past any of them) its units taken back and RateLimitedError. */
  private limitsOrRefusal(
    meters: Meter[],
    readings: CounterReading[],
    now: Date,
    alreadyTakenBack = false,
  ): MaybePromise<LimitState[]> {
    const limits = meters.map(
      (meter, i): LimitState => ({
        policy: meter.policy,
        limit: meter.limit,
        remaining: Math.max(0, meter.limit - readings[i]!.consumed),
        resetSeconds:
          meter.windowSeconds === MINUTE
            ? Math.max(1, Math.ceil(readings[i]!.msBeforeReset / 1000))
            : secondsUntilUtcMidnight(now),
        windowSeconds: meter.windowSeconds,
      }),
    );
    const exceeded = limits.filter((_limit, i) => readings[i]!.consumed > meters[i]!.limit);
    if (exceeded.length === 0) return limits;

    // the limit that keeps the caller waiting longest is the one worth naming
    const worst = exceeded.reduce((a, b) => (b.resetSeconds > a.resetSeconds ? b : a));
    // the refusal's own headers say what is left now that its units were taken back
    const refunded = limits.map((l, i) =>
      exceeded.includes(l)
        ? { ...l, remaining: 0 }
        : { ...l, remaining: Math.min(l.limit, l.remaining + meters[i]!.units) },
    );
    const refusal = new RateLimitedError(worst, refunded);
    if (alreadyTakenBack) throw refusal;
    const takenBack = meters.map((m) => this.counters.subtract(m.key, m.units, m.ttlSeconds));
    if (takenBack.some(isPromise)) {
      return Promise.all(takenBack).then(() => {
        throw refusal;
      });
    }
    throw refusal;
  }

  /**
   * Counts a request that brought no valid credential (a missing, unknown or revoked key, anonymous
   * GraphQL) against its address's per-minute limit; throws RateLimitedError past it. Requests with
   * a valid key never reach this, so a flood of bad keys from an address cannot lock out a good one.
   */
  async chargeUnauthenticated(client: string, perMinute: number): Promise<void> {
    const key = `minute:unauthenticated:${client}`;
    const reading = await this.counters.add(key, 1, MINUTE);
    if (reading.consumed <= perMinute) return;
    await this.counters.subtract(key, 1, MINUTE);
    const limit: LimitState = {
      policy: 'unauthenticated',
      limit: perMinute,
      remaining: 0,
      resetSeconds: Math.max(1, Math.ceil(reading.msBeforeReset / 1000)),
      windowSeconds: MINUTE,
    };
    throw new RateLimitedError(limit, [limit]);
  }

  /**
   * Where every limit of the principal stands, read without counting anything: the per-minute rate,
   * the per-key daily ceiling and each daily bucket of the account (GET /v1/usage). Read after a
   * request was charged, it agrees with that request's rate-limit headers.
   */
  async standing(principal: DataPrincipal): Promise<Array<LimitState & { used: number }>> {
    const plan = this.planOf(principal);
    const everyBucket = Object.fromEntries(
      Object.keys(plan.daily ?? {}).map((bucket) => [bucket, 1]),
    );
    // the meters a request touching every bucket would count against; their units are not used
    const now = this.now();
    const meters = this.metersFor(principal, { units: 1, buckets: everyBucket }, now);
    const readings = await Promise.all(meters.map((meter) => this.counters.read(meter.key)));
    return meters.map((meter, i) => {
      const reading = readings[i];
      const used = Math.min(meter.limit, reading?.consumed ?? 0);
      return {
        policy: meter.policy,
        limit: meter.limit,
        used,
        remaining: meter.limit - used,
        // a minute window starts with the first request in it; none yet = a whole minute ahead
        resetSeconds:
          meter.windowSeconds === MINUTE
            ? reading
              ? Math.max(1, Math.ceil(reading.msBeforeReset / 1000))
              : MINUTE
            : secondsUntilUtcMidnight(now),
        windowSeconds: meter.windowSeconds,
      };
    });
  }

  /** Today's use of an account's buckets (the web app's and the API's together). */
  async accountUsage(
    accountExternalId: string,
    plan: PlanLimits,
  ): Promise<Array<{ bucket: QuotaBucket; used: number; limit: number; resetSeconds: number }>> {
    const now = this.now();
    const day = utcDay(now);
    const buckets = Object.keys(plan.daily ?? {}) as QuotaBucket[];
    return Promise.all(
      buckets.map(async (bucket) => {
        const reading = await this.counters.read(accountBucketKey(day, accountExternalId, bucket));
        return {
          bucket,
          used: reading?.consumed ?? 0,
          limit: plan.daily![bucket],
          resetSeconds: secondsUntilUtcMidnight(now),
        };
      }),
    );
  }

  private metersFor(principal: DataPrincipal, charge: Charge, now: Date): Meter[] {
    // on every request: plain object literals, no closures
    const plan = this.planOf(principal);
    const who = principal.kind === 'key' ? `key:${principal.keyId}` : `client:${principal.client}`;
    const meters: Meter[] = [
      {
        policy: 'perMinute',
        key: `minute:${who}`,
        limit: plan.perMinute,
        units: charge.units,
        ttlSeconds: MINUTE,
        windowSeconds: MINUTE,
      },
    ];
    if (principal.kind !== 'key' || charge.rateOnly) return meters;
    const day = utcDay(now);
    const ttlSeconds = secondsUntilUtcMidnight(now) + DAILY_KEY_GRACE_SECONDS;
    if (plan.perKeyDaily !== null) {
      meters.push({
        policy: 'perKeyDaily',
        key: `day:${day}:key:${principal.keyId}`,
        limit: plan.perKeyDaily,
        units: charge.units,
        ttlSeconds,
        windowSeconds: DAY,
      });
    }
    if (!plan.daily) return meters;
    for (const bucket in charge.buckets) {
      const units = charge.buckets[bucket as QuotaBucket]!;
      if (units > 0) {
        meters.push({
          policy: bucket as QuotaBucket,
          key: accountBucketKey(day, principal.accountExternalId, bucket as QuotaBucket),
          limit: plan.daily[bucket as QuotaBucket],
          units,
          ttlSeconds,
          windowSeconds: DAY,
        });
      }
    }
    return meters;
  }
}
