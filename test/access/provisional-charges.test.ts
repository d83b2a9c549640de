// Charges in Redis as provisional-charges.ts keeps them: counted with their record in one step and
// final when their answer closes; refused whole past a limit; the daily units of a process whose
// lease is gone refunded by another's sweep (not the per-minute ones); and a charge counted while
// Redis was down replayed once it is back. The Redis is the test's own redis-server.
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProvisionalCharges, type ChargedMeter } from '../../src/access/provisional-charges.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createRedis } from '../../src/platform/redis.ts';
import {
  hasRedisServer,
  startOwnRedis,
  type OwnRedis,
} from '../reliability/support/redis-server.ts';
import { pollUntil } from '../support/poll.ts';
import { skipWithout } from '../support/skip-without.ts';

const logger = createLogger('silent');
const daily = (key: string, units = 1, limit = 100): ChargedMeter => ({
  key,
  units,
  ttlSeconds: 3_600,
  limit,
});
const minute = (key: string, units = 1, limit = 100): ChargedMeter => ({
  key,
  units,
  ttlSeconds: 60,
  limit,
});
const answer = () => new EventEmitter() as EventEmitter & { closed?: boolean };

describe.skipIf(skipWithout(hasRedisServer))('provisional charges (needs redis-server)', () => {
  let redis: OwnRedis;
  let reader: Redis;
  const prefix = `test-provisional-${randomBytes(4).toString('hex')}`;
  const opened: Array<{ charges: ProvisionalCharges; connection: Redis }> = [];
  const open = async () => {
    const connection = createRedis({ url: redis.url, logger, name: 'test-provisional' });
    const charges = new ProvisionalCharges(connection, prefix, logger);
    opened.push({ charges, connection });
    await pollUntil(
      async () => connection.status,
      (status) => status === 'ready',
      10_000,
    );
    return charges;
  };
  const value = async (key: string) => Number((await reader.get(`${prefix}:${key}`)) ?? 0);
  const records = (charges: ProvisionalCharges) =>
    reader.hlen(`${prefix}:provisional:${charges.processId}`);

  beforeAll(async () => {
    redis = await startOwnRedis();
    reader = new Redis(redis.url, { maxRetriesPerRequest: 2 });
    reader.on('error', () => undefined); // the test stops its Redis on purpose
  });
  afterAll(async () => {
    for (const { charges, connection } of opened) {
      await charges.close();
      connection.disconnect();
    }
    reader?.disconnect();
    await redis?.stop();
  });

  it('counts with a record until the answer closes, then the charge is final', async () => {
    const charges = await open();
    const closing = answer();
    const outcome = await charges.charge(
      [minute('minute:key:1'), daily('day:d:key:1'), daily('day:d:account:a:storeLookups')],
      closing,
    );
    expect(outcome.takenBack).toBe(false);
    expect(outcome.readings.map((r) => r.consumed)).toEqual([1, 1, 1]);
    expect(await records(charges)).toBe(1);
    closing.emit('close');
    await pollUntil(
      () => records(charges),
      (n) => n === 0,
      5_000,
    );
    expect([await value('day:d:key:1'), await value('day:d:account:a:storeLookups')]).toEqual([
      1, 1,
    ]);
  });

  it('deletes the records of the requests that end in one turn with one command', async () => {
    const charges = await open();
    const answers = Array.from({ length: 10 }, answer);
    for (const [i, closing] of answers.entries())
      await charges.charge([daily(`day:t:key:${i}`)], closing);
    expect(await records(charges)).toBe(10);
    await reader.config('RESETSTAT');
    for (const closing of answers) closing.emit('close');
    await pollUntil(
      () => records(charges),
      (n) => n === 0,
      5_000,
    );
    const stats = await reader.info('commandstats');
    expect(/cmdstat_hdel:calls=(\d+)/.exec(stats)?.[1]).toBe('1');
  });

  it('a clean stop deletes the record of a request that ended just before, before it drops its lease', async () => {
    const stopping = await open();
    const closing = answer();
    await stopping.charge([daily('day:s:key:1')], closing);
    const monitor = await reader.monitor();
    const sent: string[] = [];
    monitor.on('monitor', (_time: string, args: string[]) => sent.push(args[0]!.toLowerCase()));
    closing.emit('close');
    await stopping.close();
    await pollUntil(
      async () => sent,
      (commands) => commands.includes('del'),
      5_000,
    );
    monitor.disconnect();
    // dropped first, the lease would let another process's sweep refund an answered request
    expect(sent.filter((c) => c === 'hdel' || c === 'del')).toEqual(['hdel', 'del']);
    expect(await records(stopping)).toBe(0);
    const other = await open();
    await other.sweep();
    expect(await value('day:s:key:1')).toBe(1);
  });

  it('refuses the whole charge past any limit: every unit taken back, no record', async () => {
    const charges = await open();
    const outcome = await charges.charge(
      [daily('day:r:key:2', 1, 5), daily('day:r:account:b:storeSearches', 3, 2)],
      answer(),
    );
    expect(outcome.takenBack).toBe(true);
    expect(outcome.readings.map((r) => r.consumed)).toEqual([1, 3]);
    expect([await value('day:r:key:2'), await value('day:r:account:b:storeSearches')]).toEqual([
      0, 0,
    ]);
    expect(await records(charges)).toBe(0);
  });

  it('refunds the daily units of a process whose lease is gone, keeping what it answered and the per-minute rate', async () => {
    const dead = await open();
    const survivor = await open();
    const answered = answer();
    await dead.charge([minute('minute:key:3'), daily('day:s:key:3')], answered);
    answered.emit('close');
    await pollUntil(
      () => records(dead),
      (n) => n === 0,
      5_000,
    );
    await dead.charge([minute('minute:key:3'), daily('day:s:key:3')], answer()); // never answered
    expect([await value('minute:key:3'), await value('day:s:key:3')]).toEqual([2, 2]);

    expect(await survivor.sweep()).toBe(0); // alive: its lease holds
    expect(await value('day:s:key:3')).toBe(2);
    await dead.close(); // the lease goes, as when it lapses after a crash
    await survivor.sweep(); // (or another live process's periodic sweep did it first)
    expect([await value('minute:key:3'), await value('day:s:key:3')]).toEqual([2, 1]);
    expect(await reader.sismember(`${prefix}:provisional-owners`, dead.processId)).toBe(0);
    await survivor.sweep();
    expect(await value('day:s:key:3')).toBe(1); // refunded once
  });

  it('replays a charge counted while Redis was down, once, and leaves no record of an ended request', async () => {
    const charges = await open();
    const connection = opened.at(-1)!.connection;
    await redis.stop();
    await pollUntil(
      async () => connection.status,
      (status) => status !== 'ready',
      10_000,
    );
    const ended = answer();
    const open_ = answer();
    expect((await charges.charge([daily('day:o:key:4', 2)], ended)).readings[0]!.consumed).toBe(2);
    expect((await charges.charge([daily('day:o:key:4', 1)], open_)).readings[0]!.consumed).toBe(3);
    ended.emit('close');
    await redis.start();
    await pollUntil(
      () => value('day:o:key:4'),
      (n) => n === 3,
      15_000,
    );
    expect(await records(charges)).toBe(1); // the request still open
    open_.emit('close');
    await pollUntil(
      () => records(charges),
      (n) => n === 0,
      5_000,
    );
    expect(await value('day:o:key:4')).toBe(3);
  });
});
