import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.ts';
import { createPubSub, type PubSub } from '../../src/platform/pubsub/pubsub.ts';
import { skipWithout } from '../support/skip-without.ts';

const logger = createLogger('silent');
const REDIS_URL = process.env.REDIS_URL;

/** Resolves with the first message on `trigger`, or rejects after `ms`. */
async function nextMessage<T>(pubsub: PubSub, trigger: string, ms = 3_000): Promise<T> {
  const iterator = pubsub.asyncIterableIterator<T>(trigger);
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      iterator.next(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no message on ${trigger} within ${ms} ms`)), ms);
      }),
    ]);
    return result.value as T;
  } finally {
    clearTimeout(timer);
    await iterator.return?.();
  }
}

/** Subscribes and waits until the subscription is live, so a publish right after cannot be missed. */
async function subscribed<T>(
  pubsub: PubSub,
  trigger: string,
): Promise<{ received: Promise<T>; stop(): void }> {
  let resolve!: (value: T) => void;
  const received = new Promise<T>((r) => (resolve = r));
  const id = await pubsub.subscribe(trigger, (payload: T) => resolve(payload), {});
  return { received, stop: () => pubsub.unsubscribe(id) };
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms))]);

const opened: PubSub[] = [];
const open = (options: Parameters<typeof createPubSub>[0]) => {
  const pubsub = createPubSub(options);
  opened.push(pubsub);
  return pubsub;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close()));
});

describe('in-process pub/sub (no REDIS_URL)', () => {
  it('delivers a published event to a GraphQL-style async iterator', async () => {
    const pubsub = open({ logger });
    const message = nextMessage<{ id: string }>(pubsub, 'scrape.status');
    await new Promise((r) => setImmediate(r));
    await pubsub.publish('scrape.status', { id: 'abc' });
    expect(await message).toEqual({ id: 'abc' });
  });

  it('delivers the JSON form of the payload, exactly as Redis would', async () => {
    const pubsub = open({ logger });
    const sub = await subscribed<{ at: string }>(pubsub, 'scrape.status');
    await pubsub.publish('scrape.status', { at: new Date('2026-01-02T03:04:05.000Z') });
    expect(await sub.received).toEqual({ at: '2026-01-02T03:04:05.000Z' });
  });

  it('reports itself healthy and in-process', async () => {
    expect(await open({ logger }).health()).toEqual({ ok: true, backend: 'in-process' });
  });
});

describe('Redis pub/sub', () => {
  const prefix = () => `test:${process.pid}:${randomBytes(4).toString('hex')}:`;

  it.skipIf(skipWithout(REDIS_URL))(
    'delivers an event published by one replica to another (needs REDIS_URL)',
    async () => {
      const keyPrefix = prefix();
      const replicaA = open({ redisUrl: REDIS_URL, logger, keyPrefix });
      const replicaB = open({ redisUrl: REDIS_URL, logger, keyPrefix });
      const onB = await subscribed<{ status: string }>(replicaB, 'scrape.status');
      await replicaA.publish('scrape.status', { status: 'done' });
      expect(await within(onB.received, 3_000)).toEqual({ status: 'done' });
      onB.stop();
    },
  );

  it.skipIf(skipWithout(REDIS_URL))(
    'keeps deployments with different prefixes apart (needs REDIS_URL)',
    async () => {
      const mine = open({ redisUrl: REDIS_URL, logger, keyPrefix: prefix() });
      const other = open({ redisUrl: REDIS_URL, logger, keyPrefix: prefix() });
      const onMine = await subscribed(mine, 'scrape.status');
      await other.publish('scrape.status', { status: 'done', from: 'other' });
      // Redis delivers to a subscriber in the order it handled the publishes: had the other deployment's
      // message reached this channel, it would arrive before this one
      await mine.publish('scrape.status', { status: 'done', from: 'mine' });
      expect(await within(onMine.received, 3_000)).toEqual({ status: 'done', from: 'mine' });
      onMine.stop();
    },
  );

  it.skipIf(skipWithout(REDIS_URL))(
    'reports Redis as healthy with a latency (needs REDIS_URL)',
    async () => {
      const pubsub = open({ redisUrl: REDIS_URL, logger, keyPrefix: prefix() });
      await subscribed(pubsub, 'warm-up');
      const health = await pubsub.health();
      expect(health).toMatchObject({ ok: true, backend: 'redis' });
      expect(health.latencyMs).toBeTypeOf('number');
    },
  );

  it.skipIf(skipWithout(REDIS_URL))(
    'lets a subscription end after the connections closed without an unhandled rejection (needs REDIS_URL)',
    async () => {
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => rejections.push(reason);
      process.on('unhandledRejection', onRejection);
      try {
        const pubsub = open({ redisUrl: REDIS_URL, logger, keyPrefix: prefix() });
        const live = await subscribed(pubsub, 'scrape.status');
        // a server shutting down closes Redis while a client's subscription is still open
        await pubsub.close();
        live.stop();
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(rejections).toEqual([]);
      } finally {
        process.off('unhandledRejection', onRejection);
      }
    },
  );

  it('survives an unreachable Redis: unhealthy, publish fails, nothing crashes', async () => {
    const pubsub = open({ redisUrl: 'redis://127.0.0.1:1', logger, keyPrefix: prefix() });
    expect(await pubsub.health()).toMatchObject({ ok: false, backend: 'redis' });
    await expect(pubsub.publish('scrape.status', { status: 'done' })).rejects.toThrow();
  });
});
