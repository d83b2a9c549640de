// Atomic counters with an expiry, through rate-limiter-flexible: RateLimiterRedis (one Lua INCRBY +
// EXPIRE per call) shared by every replica when REDIS_URL is set, RateLimiterMemory otherwise. The
// limiters are only used as counters (their own point limit is never reached): the plan decides
// what is allowed (quota.ts), so one limiter serves every plan and configuration can change limits
// without new limiter instances. If Redis fails, each call falls through to the insurance limiter
// (in-process), so requests keep being served on this instance's local counts.
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from '../platform/logger.ts';
import { closeRedis, createRedis } from '../platform/redis.ts';

export interface CounterReading {
  /** units counted so far in this window, this call's included */
  consumed: number;
  /** milliseconds until the counter expires */
  msBeforeReset: number;
}

export interface Counters {
  readonly backend: 'redis' | 'in-process';
  /** adds `units`; a counter that does not exist yet starts now and lives `ttlSeconds` */
  add(key: string, units: number, ttlSeconds: number): Promise<CounterReading>;
  subtract(key: string, units: number, ttlSeconds: number): Promise<void>;
  read(key: string): Promise<CounterReading | null>;
  close(): Promise<void>;
}

export interface CreateCountersOptions {
  redisUrl?: string;
  /** prefix of every Redis key (and of the in-process keys, for symmetry) */
  keyPrefix: string;
  logger: Logger;
}

/** far above any plan's limit: the limiter never refuses by itself */
const UNLIMITED = Number.MAX_SAFE_INTEGER;
const DEFAULT_WINDOW_SECONDS = 60;

const memoryLimiter = (keyPrefix: string) =>
  new RateLimiterMemory({ points: UNLIMITED, duration: DEFAULT_WINDOW_SECONDS, keyPrefix });

export function createCounters(options: CreateCountersOptions): Counters {
  if (!options.redisUrl) return limiterCounters(memoryLimiter(options.keyPrefix), 'in-process', async () => undefined);

  const log = options.logger.child({ component: 'rate-limits' });
  const redis = createRedis({ url: options.redisUrl, logger: options.logger, name: 'rate-limits' });
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    points: UNLIMITED,
    duration: DEFAULT_WINDOW_SECONDS,
    keyPrefix: options.keyPrefix,
    // while the connection is down, count locally at once instead of queueing behind reconnects
    rejectIfRedisNotReady: true,
    insuranceLimiter: memoryLimiter(options.keyPrefix),
  });

  // One warning per outage: limits are then per instance, which a multi-replica deployment must know.
  let local = false;
  const noteConnection = () => {
    if (redis.status === 'ready') {
      if (local) log.info('Redis is back: rate limits and quotas are shared again');
      local = false;
    } else if (!local) {
      local = true;
      log.warn('Redis is unavailable: rate limits and quotas are counted on this instance only until it returns');
    }
  };
  redis.on('ready', noteConnection);

  return limiterCounters(limiter, 'redis', () => closeRedis(redis), noteConnection);
}

function limiterCounters(
  limiter: RateLimiterAbstract,
  backend: Counters['backend'],
  close: () => Promise<void>,
  beforeEachCall: () => void = () => undefined,
): Counters {
  return {
    backend,
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
