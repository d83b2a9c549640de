// A charge is provisional until the gateway is done with its request. Every charge in Redis is
// counted and recorded in one script (the counters and the record cannot part), under this
// process's id: `provisional:<process>` holds, per charge, the daily counters it added. When the
// request ends (its answer written, or its client gone) the record is deleted and the charge is
// final. When the process dies first, its lease (`alive:<process>`, renewed every few seconds)
// lapses and the next sweep of any gateway takes the recorded units back from the daily counters
// (the per-minute rate is not refunded: it guarded the service in that minute).
//
// The charge is also idempotent by its id: a command resent after a lost reply, or replayed after
// a Redis outage, counts once. While Redis is unreachable a charge is counted on this process
// alone (for its limits) and replayed, with its id, once Redis is back.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../platform/logger.ts';
import { type CounterReading, InProcessCounters } from './in-process-counters.ts';

/** One counter a charge adds to: its key (after the counters' prefix), units, window (seconds) and limit. */
export interface ChargedMeter {
  key: string;
  units: number;
  ttlSeconds: number;
  limit: number;
}

/** What a charge left: each meter's reading, and whether its units were taken back (past a limit). */
export interface ChargeOutcome {
  readings: CounterReading[];
  takenBack: boolean;
}

/** What a charge waits for before it is final: the HTTP response ('close' follows the last byte, or the client leaving). */
export interface Answer {
  once(event: 'close', listener: () => void): unknown;
  readonly closed?: boolean;
}

/** how long a process's records stay its own without a renewal (QUOTA_LEASE_MS's default) */
export const LEASE_MS = 15_000;
/** renewals and sweeps per lease: a live process renews several times before its lease could lapse */
const CHECKS_PER_LEASE = 5;
/** only daily counters are refunded */
const MINUTE_SECONDS = 60;

// KEYS: record hash, then one counter per meter; ARGV: charge id, record value, then units, ttl, limit per meter.
// Returns {state, consumed1, pttl1, ...}: state 1 counted, 0 refused (taken back), 2 counted before (a resend).
const CHARGE_SCRIPT = `
local n = #KEYS - 1
local out = {1}
if redis.call('hexists', KEYS[1], ARGV[1]) == 1 then
  out[1] = 2
  for i = 1, n do
    out[#out + 1] = tonumber(redis.call('get', KEYS[i + 1]) or '0')
    out[#out + 1] = redis.call('pttl', KEYS[i + 1])
  end
  return out
end
local over = false
for i = 1, n do
  local units, ttl, limit = tonumber(ARGV[3 * i]), tonumber(ARGV[3 * i + 1]), tonumber(ARGV[3 * i + 2])
  redis.call('set', KEYS[i + 1], 0, 'EX', ttl, 'NX')
  local consumed = redis.call('incrby', KEYS[i + 1], units)
  local pttl = redis.call('pttl', KEYS[i + 1])
  if pttl == -1 then redis.call('expire', KEYS[i + 1], ttl) pttl = 1000 * ttl end
  if consumed > limit then over = true end
  out[#out + 1] = consumed
  out[#out + 1] = pttl
end
if over then
  out[1] = 0
  for i = 1, n do redis.call('decrby', KEYS[i + 1], tonumber(ARGV[3 * i])) end
else
  redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
end
return out
`;

// A charge counted locally during an outage, replayed: counted unless its record shows it was
// (the reply of the original was lost), recorded unless its request already ended.
// KEYS: record hash, counters; ARGV: charge id, record value, ended (1/0), then units, ttl per counter.
const REPLAY_SCRIPT = `
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then
  for i = 2, #KEYS do
    redis.call('set', KEYS[i], 0, 'EX', tonumber(ARGV[2 * i + 1]), 'NX')
    redis.call('incrby', KEYS[i], tonumber(ARGV[2 * i]))
  end
  if ARGV[3] == '0' then redis.call('hset', KEYS[1], ARGV[1], ARGV[2]) end
elseif ARGV[3] == '1' then
  redis.call('hdel', KEYS[1], ARGV[1])
end
return 1
`;

// The records of a process whose lease lapsed: each recorded unit taken back from its daily
// counter (if that day's counter still exists), then the records dropped. KEYS: lease, records, owners; ARGV: process id.
const SWEEP_SCRIPT = `
if redis.call('exists', KEYS[1]) == 1 then return -1 end
local records = redis.call('hvals', KEYS[2])
for _, record in ipairs(records) do
  for _, meter in ipairs(cjson.decode(record)) do
    if redis.call('exists', meter[1]) == 1 then redis.call('decrby', meter[1], meter[2]) end
  end
end
redis.call('del', KEYS[2])
redis.call('srem', KEYS[3], ARGV[1])
return #records
`;

interface Replay {
  meters: ChargedMeter[];
  ended: boolean;
}

export class ProvisionalCharges {
  readonly processId = randomUUID();
  private readonly records: string;
  private readonly lease: string;
  private readonly owners: string;
  private sequence = 0;
  /** counts of this process while Redis cannot be reached: they keep its limits meanwhile */
  private readonly local = new InProcessCounters();
  /** charges counted locally, to replay in Redis once it is back */
  private readonly replays = new Map<string, Replay>();
  /** charges whose request ended while their record could not be deleted */
  private readonly unsettled = new Set<string>();
  /** charges whose request ended in this turn of the event loop: their records go in one HDEL */
  private ended: string[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  /** units taken back from dead processes by this one's sweeps (for logs and tests) */
  refunded = 0;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
    /** notes the connection's state before each charge (the counters' outage warning) */
    private readonly beforeEachCharge: () => void = () => undefined,
    private readonly leaseMs: number = LEASE_MS,
  ) {
    this.records = `${prefix}:provisional:${this.processId}`;
    this.lease = `${prefix}:alive:${this.processId}`;
    this.owners = `${prefix}:provisional-owners`;
    redis.defineCommand('siCharge', { lua: CHARGE_SCRIPT });
    redis.defineCommand('siReplay', { lua: REPLAY_SCRIPT });
    redis.defineCommand('siSweep', { numberOfKeys: 3, lua: SWEEP_SCRIPT });
    redis.on('ready', () => void this.reconnected());
    void this.renew();
    void this.sweep();
    const every = Math.floor(leaseMs / CHECKS_PER_LEASE);
    this.timers.push(setInterval(() => void this.renew(), every).unref());
    this.timers.push(setInterval(() => void this.sweep(), every).unref());
  }

  /**
   * Counts the meters at once (all of them, or none when one would pass its limit) and, when
   * counted, keeps the charge provisional until `answer` closes (final at once without one).
   */
  async charge(meters: ChargedMeter[], answer?: Answer): Promise<ChargeOutcome> {
    this.beforeEachCharge();
    const id = String(++this.sequence);
    const record = this.recordOf(meters);
    let outcome: ChargeOutcome;
    if (this.redis.status === 'ready') {
      try {
        outcome = await this.chargeInRedis(id, record, meters);
      } catch {
        outcome = this.chargeLocally(id, meters);
      }
    } else {
      outcome = this.chargeLocally(id, meters);
    }
    if (!outcome.takenBack) {
      if (!answer || answer.closed) this.settle(id);
      else answer.once('close', () => this.settle(id));
    }
    return outcome;
  }

  private keyOf(meter: ChargedMeter): string {
    return `${this.prefix}:${meter.key}`;
  }

  /** what a refund would take back: the daily counters' units */
  private recordOf(meters: ChargedMeter[]): string {
    return JSON.stringify(
      meters.filter((m) => m.ttlSeconds > MINUTE_SECONDS).map((m) => [this.keyOf(m), m.units]),
    );
  }

  private async chargeInRedis(
    id: string,
    record: string,
    meters: ChargedMeter[],
  ): Promise<ChargeOutcome> {
    const args: Array<string | number> = [
      1 + meters.length,
      this.records,
      ...meters.map((m) => this.keyOf(m)),
      id,
      record,
    ];
    for (const m of meters) args.push(m.units, m.ttlSeconds, m.limit);
    const out = (await (
      this.redis as unknown as { siCharge(...a: Array<string | number>): Promise<number[]> }
    ).siCharge(...args)) as number[];
    const readings = meters.map((_, i) => ({
      consumed: Number(out[1 + 2 * i]),
      msBeforeReset: Number(out[2 + 2 * i]),
    }));
    return { readings, takenBack: out[0] === 0 };
  }

  private chargeLocally(id: string, meters: ChargedMeter[]): ChargeOutcome {
    const readings = meters.map((m) => this.local.add(m.key, m.units, m.ttlSeconds));
    if (readings.some((r, i) => r.consumed > meters[i]!.limit)) {
      for (const m of meters) this.local.subtract(m.key, m.units, m.ttlSeconds);
      return { readings, takenBack: true };
    }
    this.replays.set(id, {
      meters: meters.filter((m) => m.ttlSeconds > MINUTE_SECONDS),
      ended: false,
    });
    return { readings, takenBack: false };
  }

  /** The request ended: its charge is final. */
  private settle(id: string): void {
    const replay = this.replays.get(id);
    if (replay) {
      replay.ended = true;
      return;
    }
    if (this.redis.status !== 'ready') {
      this.unsettled.add(id);
      return;
    }
    // under load many requests end in one turn; one command deletes their records at its end
    if (this.ended.push(id) === 1) setImmediate(() => void this.deleteEnded());
  }

  /** Deletes the records of the charges that ended; one that cannot be deleted now is deleted once Redis is back. */
  private async deleteEnded(): Promise<void> {
    const ids = this.ended;
    if (ids.length === 0) return;
    this.ended = [];
    const unsettled = () => {
      for (const id of ids) this.unsettled.add(id);
    };
    if (this.redis.status !== 'ready') return unsettled();
    await this.redis.hdel(this.records, ...ids).catch(unsettled);
  }

  private async renew(): Promise<void> {
    if (this.redis.status !== 'ready') return;
    await this.redis
      .multi()
      .set(this.lease, '1', 'PX', this.leaseMs)
      .sadd(this.owners, this.processId)
      .exec()
      .catch(() => undefined);
  }

  /** Back after an outage: the lease first (this process is alive), then the replays, then the records to delete. */
  private async reconnected(): Promise<void> {
    await this.renew();
    for (const [id, replay] of [...this.replays]) {
      const args: Array<string | number> = [
        1 + replay.meters.length,
        this.records,
        ...replay.meters.map((m) => this.keyOf(m)),
        id,
        this.recordOf(replay.meters),
        replay.ended ? 1 : 0,
      ];
      for (const m of replay.meters) args.push(m.units, m.ttlSeconds);
      const endedBefore = replay.ended;
      try {
        await (
          this.redis as unknown as { siReplay(...a: Array<string | number>): Promise<number> }
        ).siReplay(...args);
        this.replays.delete(id);
        // its request ended while the replay was on its way: the record just written goes too
        if (replay.ended && !endedBefore) this.settle(id);
      } catch {
        return; // gone again: the next 'ready' carries on
      }
    }
    for (const id of [...this.unsettled]) {
      this.unsettled.delete(id);
      this.settle(id);
    }
  }

  /** Refunds the provisional charges of every process whose lease lapsed. */
  async sweep(): Promise<number> {
    if (this.redis.status !== 'ready') return 0;
    let refunded = 0;
    try {
      const owners = await this.redis.smembers(this.owners);
      for (const owner of owners) {
        if (owner === this.processId) continue;
        const n = Number(
          await (this.redis as unknown as { siSweep(...a: string[]): Promise<number> }).siSweep(
            `${this.prefix}:alive:${owner}`,
            `${this.prefix}:provisional:${owner}`,
            this.owners,
            owner,
          ),
        );
        if (n > 0) refunded += n;
      }
    } catch (error) {
      this.logger.warn(
        { err: { message: (error as Error).message } },
        'provisional charges not swept; the next sweep tries again',
      );
      return refunded;
    }
    if (refunded > 0) {
      this.refunded += refunded;
      this.logger.info(
        { refunded },
        'refunded the charges of requests a stopped gateway never finished',
      );
    }
    return refunded;
  }

  /** On a clean stop (after the server drained): the lease is dropped so what is left is refunded at once. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.local.close();
    // the records of requests already answered go before the lease, which would refund them
    await this.deleteEnded();
    if (this.redis.status === 'ready') await this.redis.del(this.lease).catch(() => undefined);
  }
}
