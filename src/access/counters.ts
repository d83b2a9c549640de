// Atomic counters with an expiry, shared by every replica through Redis (rate-limiter-flexible's
// RateLimiterRedis, used only as a counter: the plan decides what is allowed, quota.ts), or this
// process's own (in-process-counters.ts), which answer synchronously so charging makes no promise.
// When Redis fails, calls fall through to the in-process counters and what they counted is added to
// Redis once it is back (OutageLedger): an outage loses no charge.
import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Logger } from '../platform/logger.ts';
import { closeRedis, createRedis } from '../platform/redis.ts';
import {
  type CounterReading,
  InProcessCounters,
  type MaybePromise,
} from './in-process-counters.ts';
import { ProvisionalCharges } from './provisional-charges.ts';

export type { CounterReading, MaybePromise };

export interface Counters {
  readonly backend: 'redis' | 'in-process';
  /** adds `units`; a counter that does not exist yet starts now and lives `ttlSeconds` */
  add(key: string, units: number, ttlSeconds: number): MaybePromise<CounterReading>;
  subtract(key: string, units: number, ttlSeconds: number): MaybePromise<void>;
  read(key: string): MaybePromise<CounterReading | null>;
  /** shared counters only: charges kept provisional until their request ends (provisional-charges.ts) */
  readonly provisional?: ProvisionalCharges;
  close(): Promise<void>;
}

export interface CreateCountersOptions {
  redisUrl?: string;
  /** prefix of every Redis key (and of the insurance limiter's, which stands in for Redis) */
  keyPrefix: string;
  logger: Logger;
  /** how long a dead process's provisional charges wait before another refunds them (QUOTA_LEASE_MS) */
  leaseMs?: number;
}

/** far above any plan's limit: the limiter never refuses by itself */
const UNLIMITED = Number.MAX_SAFE_INTEGER;
const DEFAULT_WINDOW_SECONDS = 60;

const memoryLimiter = (keyPrefix: string) =>
  new RateLimiterMemory({ points: UNLIMITED, duration: DEFAULT_WINDOW_SECONDS, keyPrefix });

/**
 * Units an instance counted on its own while Redis could not be reached, per counter key, with
 * when each counter's window ends. Once Redis answers again they are added to the shared counters
 * (those whose window has not ended), so the daily quotas the web app reads hold every request
 * served during the outage. Per-minute rate limits are not carried: they guard the service in
 * that minute, which the instance did on its own, and a caller is not refused afterwards for it.
 */
export class OutageLedger {
  private readonly pending = new Map<string, { units: number; endsAt: number }>();

  note(key: string, units: number, ttlSeconds: number, now = Date.now()): void {
    if (ttlSeconds <= DEFAULT_WINDOW_SECONDS) return;
    const entry = this.pending.get(key) ?? { units: 0, endsAt: now + ttlSeconds * 1000 };
    entry.units += units;
    this.pending.set(key, entry);
  }

  /** takes every counter still in its window with units to carry: [key, units, seconds left] */
  take(now = Date.now()): Array<[string, number, number]> {
    const carried: Array<[string, number, number]> = [];
    for (const [key, { units, endsAt }] of this.pending) {
      const secondsLeft = Math.floor((endsAt - now) / 1000);
      if (units > 0 && secondsLeft > 0) carried.push([key, units, secondsLeft]);
    }
    this.pending.clear();
    return carried;
  }

  get size(): number {
    return this.pending.size;
  }
}

/** An insurance limiter that notes in `ledger` what it counts (and gives back). */
function ledgeredInsurance(keyPrefix: string, ledger: OutageLedger): RateLimiterMemory {
  const insurance = memoryLimiter(keyPrefix);
  const consume = insurance.consume.bind(insurance);
  const reward = insurance.reward.bind(insurance);
  type Options = { customDuration?: number } | undefined;
  insurance.consume = async (key, points = 1, options?: Options) => {
    const result = await consume(key, points, options);
    ledger.note(String(key), points, options?.customDuration ?? DEFAULT_WINDOW_SECONDS);
    return result;
  };
  insurance.reward = async (key, points = 1, options?: Options) => {
    const result = await reward(key, points, options);
    ledger.note(String(key), -points, options?.customDuration ?? DEFAULT_WINDOW_SECONDS);
    return result;
  };
  return insurance;
}

export function createCounters(options: CreateCountersOptions): Counters {
  if (!options.redisUrl) return new InProcessCounters();

  const log = options.logger.child({ component: 'rate-limits' });
  const redis = createRedis({ url: options.redisUrl, logger: options.logger, name: 'rate-limits' });
  const ledger = new OutageLedger();
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    points: UNLIMITED,
    duration: DEFAULT_WINDOW_SECONDS,
    keyPrefix: options.keyPrefix,
    // while the connection is down, count locally at once instead of queueing behind reconnects
    rejectIfRedisNotReady: true,
    insuranceLimiter: ledgeredInsurance(options.keyPrefix, ledger),
  });

  // what was counted locally goes to Redis when it is back; a failure there is counted locally
  // again (the insurance notes it anew) and carried at the next return
  const carryOver = async () => {
    const carried = ledger.take();
    for (const [key, units, secondsLeft] of carried) {
      await limiter.consume(key, units, { customDuration: secondsLeft }).catch(() => undefined);
    }
    if (carried.length > 0)
      log.info(
        { counters: carried.length },
        'added the counts of the Redis outage to the shared counters',
      );
  };

  // One warning per outage: limits are then per instance, which a multi-replica deployment must know.
  let local = false;
  const noteConnection = () => {
    if (redis.status === 'ready') {
      if (local) log.info('Redis is back: rate limits and quotas are shared again');
      local = false;
      if (ledger.size > 0) void carryOver();
    } else if (!local) {
      local = true;
      log.warn(
        'Redis is unavailable: rate limits and quotas are counted on this instance only until it returns',
      );
    }
  };
  redis.on('ready', noteConnection);

  const provisional = new ProvisionalCharges(
    redis,
    options.keyPrefix,
    log,
    noteConnection,
    options.leaseMs,
  );
  const close = async () => {
    await provisional.close();
    await closeRedis(redis);
  };
  return { ...redisCounters(limiter, close, noteConnection), provisional };
}

/** The Redis limiter as counters; `beforeEachCall` notes the connection's state first (an outage's warning, its carry-over). */
function redisCounters(
  limiter: RateLimiterAbstract,
  close: () => Promise<void>,
  beforeEachCall: () => void,
): Counters {
  return {
    backend: 'redis',
    async add(key, units, ttlSeconds) {
      beforeEachCall();
      const res = await limiter.consume(key, units, { customDuration: ttlSeconds });
      return { consumed: res.consumedPoints, msBeforeReset: res.msBeforeNext };
    },
    async subtract(key, units, ttlSeconds) {
      beforeEachCall();
      await limiter.reward(key, units, { customDuration: ttlSeconds });
    },
    async read(key) {
      beforeEachCall();
      const res = await limiter.get(key);
      return res ? { consumed: res.consumedPoints, msBeforeReset: res.msBeforeNext } : null;
    },
    close,
  };
}
