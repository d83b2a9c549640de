// Pub/sub for GraphQL subscriptions and server-sent events (e.g. scrape status). With REDIS_URL,
// RedisPubSub over two ioredis connections (a subscribing connection cannot publish), so every
// replica sees every event. Without it, graphql-subscriptions' in-process PubSub: one instance only.
// Payloads travel as JSON on both backends, so code that works on one works on the other.
import { PubSub as InProcessPubSub, PubSubEngine } from 'graphql-subscriptions';
import { RedisPubSub, type PubSubRedisOptions } from 'graphql-redis-subscriptions';
import type { Logger } from '../logger.ts';
import { closeRedis, createRedis, pingRedis } from '../redis.ts';

export type PubSubBackend = 'redis' | 'in-process';

export interface PubSubHealth {
  ok: boolean;
  backend: PubSubBackend;
  latencyMs?: number;
  error?: string;
}

/** graphql-subscriptions' PubSubEngine (publish, subscribe, unsubscribe, asyncIterableIterator) plus lifecycle. */
export type PubSub = PubSubEngine & {
  readonly backend: PubSubBackend;
  health(): Promise<PubSubHealth>;
  close(): Promise<void>;
  /**
   * Calls `listener` each time the shared channel is back after an outage, when events published
   * meanwhile were lost: subscribers then read the truth again (pubsub/rechecks.ts). Returns the
   * function that removes it. In-process pub/sub loses nothing and never calls it.
   */
  onResume(listener: () => void): () => void;
};

export interface CreatePubSubOptions {
  redisUrl?: string;
  logger: Logger;
  /** prepended to every channel name, so deployments (and test runs) sharing a Redis stay apart */
  keyPrefix?: string;
}

export const DEFAULT_CHANNEL_PREFIX = 'store-intelligence:';

/**
 * Prefixes channel names on the way in and out. RedisPubSub's triggerTransform only applies to
 * subscribe, not publish, so the prefix is applied here for both.
 */
class PrefixedPubSub extends PubSubEngine {
  private readonly resumeListeners = new Set<() => void>();
  private closed = false;

  constructor(
    private readonly inner: PubSubEngine,
    private readonly prefix: string,
    readonly backend: PubSubBackend,
    readonly health: () => Promise<PubSubHealth>,
    private readonly closeBackend: () => Promise<void>,
  ) {
    super();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.closeBackend();
  }

  onResume(listener: () => void): () => void {
    this.resumeListeners.add(listener);
    return () => this.resumeListeners.delete(listener);
  }

  /** the shared channel is back: tell every subscriber to read the truth again */
  resumed(): void {
    for (const listener of this.resumeListeners) listener();
  }

  publish(trigger: string, payload: unknown): Promise<void> {
    return this.inner.publish(this.prefix + trigger, toJsonValue(payload));
  }

  subscribe(
    trigger: string,
    onMessage: (payload: unknown) => void,
    options: object = {},
  ): Promise<number> {
    return this.inner.subscribe(this.prefix + trigger, onMessage, options);
  }

  unsubscribe(subId: number): void {
    // RedisPubSub drops the promise of Redis's UNSUBSCRIBE: on a closed connection it would reject
    // unhandled (and end the process); once closed, nothing is subscribed anyway
    if (this.closed) return;
    this.inner.unsubscribe(subId);
  }
}

/** What a subscriber on another replica would receive: the payload after a JSON round trip. */
function toJsonValue(payload: unknown): unknown {
  return payload === undefined ? null : JSON.parse(JSON.stringify(payload));
}

export function createPubSub(options: CreatePubSubOptions): PubSub {
  const prefix = options.keyPrefix ?? DEFAULT_CHANNEL_PREFIX;
  if (!options.redisUrl) {
    return new PrefixedPubSub(
      new InProcessPubSub(),
      prefix,
      'in-process',
      async () => ({ ok: true, backend: 'in-process' }),
      async () => undefined,
    );
  }

  const publisher = createRedis({
    url: options.redisUrl,
    logger: options.logger,
    name: 'pubsub-publisher',
  });
  const subscriber = createRedis({
    url: options.redisUrl,
    logger: options.logger,
    name: 'pubsub-subscriber',
    subscriber: true,
  });
  // graphql-redis-subscriptions is typed against its own ioredis copy; the client API it uses
  // (publish, subscribe, psubscribe, message events) is the same in ours.
  type TheirClient = NonNullable<PubSubRedisOptions['publisher']>;
  const engine = new RedisPubSub({
    publisher: publisher as unknown as TheirClient,
    subscriber: subscriber as unknown as TheirClient,
  });

  const pubsub = new PrefixedPubSub(
    engine,
    prefix,
    'redis',
    async () => {
      const ping = await pingRedis(publisher);
      if (ping.ok && subscriber.status !== 'ready') {
        return {
          ok: false,
          backend: 'redis',
          error: `subscriber connection is ${subscriber.status}`,
        };
      }
      return { backend: 'redis', ...ping };
    },
    async () => {
      await Promise.all([closeRedis(publisher), closeRedis(subscriber)]);
    },
  );
  // a subscriber connection that was lost missed what was published meanwhile (Redis pub/sub keeps
  // nothing); ioredis subscribes again on reconnect, and 'ready' then says the channel is back
  let lost = false;
  subscriber.on('close', () => (lost = true));
  subscriber.on('ready', () => {
    if (!lost) return;
    lost = false;
    pubsub.resumed();
  });
  return pubsub;
}
