// Shared ioredis connections (pub/sub, rate-limit counters, caches). A Redis outage must never
// crash the process: connections retry forever with a capped back-off, errors are logged once per
// outage (not once per retry), and commands fail fast instead of queueing for the whole outage.
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from './logger.ts';

export interface CreateRedisOptions {
  url: string;
  logger: Logger;
  /** shows in logs and in CLIENT LIST, e.g. "pubsub-publisher" */
  name: string;
  /** prefix ioredis adds to every key (not to pub/sub channels) */
  keyPrefix?: string;
  /**
   * A subscriber connection only issues (P)SUBSCRIBE, which must wait for the next reconnect
   * rather than fail; command connections give up on a request after one reconnect attempt.
   */
  subscriber?: boolean;
}

/** Back-off between reconnect attempts: 100 ms, 200 ms, ... capped at 2 s; never gives up. */
export const reconnectDelayMs = (attempt: number) => Math.min(attempt * 100, 2_000);

export function createRedis(options: CreateRedisOptions): Redis {
  const log = options.logger.child({ component: 'redis', connection: options.name });
  const redisOptions: RedisOptions = {
    connectionName: options.name,
    keyPrefix: options.keyPrefix,
    retryStrategy: reconnectDelayMs,
    maxRetriesPerRequest: options.subscriber ? null : 1,
    connectTimeout: 5_000,
  };
  const redis = new Redis(options.url, redisOptions);

  let healthy = true;
  redis.on('error', (error: Error) => {
    // ioredis emits an error on every failed reconnect; one warning per outage is enough
    if (healthy)
      log.warn(
        { err: { message: error.message } },
        'redis connection failed; retrying in the background',
      );
    healthy = false;
  });
  redis.on('ready', () => {
    if (!healthy) log.info('redis connection restored');
    healthy = true;
  });
  return redis;
}

/** Closes politely when connected; drops the socket (and any retry loop) when not. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status === 'ready') {
    try {
      await redis.quit();
      return;
    } catch {
      // fall through to a hard disconnect
    }
  }
  redis.disconnect();
}

/** PING with a deadline, for health checks: a hung Redis must not hang /v1/health. */
export async function pingRedis(
  redis: Redis,
  timeoutMs = 1_000,
): Promise<{ ok: boolean; latencyMs?: number; error?: string }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no reply within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
