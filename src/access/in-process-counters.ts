// Counters of this process alone, for a single instance without Redis; also the local half of the
// provisional charges. They answer synchronously, so a request is charged without a promise.
export interface CounterReading {
  /** units counted so far in this window, this call's included */
  consumed: number;
  /** milliseconds until the counter expires */
  msBeforeReset: number;
}

/** The in-process counters answer at once; Redis's through a promise. */
export type MaybePromise<T> = T | Promise<T>;

/** How often ended counters are dropped from memory (a counter ended is never read again). */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Counters of this process alone (no REDIS_URL: a single instance). Fixed windows, as the Redis
 * counters: a counter starts with its first units and ends `ttlSeconds` later; a counter read or
 * added to after its end starts anew.
 */
export class InProcessCounters {
  readonly backend = 'in-process';
  private readonly counters = new Map<string, { consumed: number; endsAt: number }>();
  private readonly sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS).unref();

  add(key: string, units: number, ttlSeconds: number): CounterReading {
    const now = Date.now();
    let counter = this.counters.get(key);
    if (!counter || counter.endsAt <= now) {
      counter = { consumed: 0, endsAt: now + ttlSeconds * 1000 };
      this.counters.set(key, counter);
    }
    counter.consumed += units;
    return { consumed: counter.consumed, msBeforeReset: counter.endsAt - now };
  }

  subtract(key: string, units: number, ttlSeconds: number): void {
    this.add(key, -units, ttlSeconds);
  }

  read(key: string): CounterReading | null {
    const now = Date.now();
    const counter = this.counters.get(key);
    if (!counter || counter.endsAt <= now) return null;
    return { consumed: counter.consumed, msBeforeReset: counter.endsAt - now };
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  private sweep(now = Date.now()): void {
    for (const [key, counter] of this.counters)
      if (counter.endsAt <= now) this.counters.delete(key);
  }
}
