// The live feed behind Subscription.crawlerStatus: one read of the crawler's state per interval in
// each process, whatever the number of consoles following it, handed to every subscriber of the
// same window. Reading starts with the first subscriber and stops after the last one leaves. A
// subscriber that reads slower than the feed skips to the newest snapshot (a console wants now,
// not history). A failed read is logged and retried at the next interval; subscribers keep the
// last snapshot they had.
import type { Logger } from '../platform/logger.ts';
import type { Queryable } from '../platform/jobs/job-queue.ts';
import { crawlerStatus, type CrawlerStatus } from './crawler-status.sql.ts';

export const STATUS_INTERVAL_MS = 5_000;

interface Subscriber {
  latest: CrawlerStatus | null;
  wake: (() => void) | null;
}

class StatusPoller {
  private readonly subscribers = new Set<Subscriber>();
  private timer: NodeJS.Timeout | null = null;
  private reading = false;

  constructor(
    private readonly db: Queryable,
    private readonly logger: Logger,
    private readonly recentMinutes: number,
    private readonly intervalMs: number,
    private readonly clock: () => Date,
  ) {}

  async *follow(): AsyncGenerator<CrawlerStatus> {
    const me: Subscriber = { latest: null, wake: null };
    try {
      // the first snapshot is read for this subscriber at once; later ones come from the shared timer
      const first = await crawlerStatus(this.db, this.clock(), this.recentMinutes);
      this.subscribers.add(me);
      this.timer ??= setInterval(() => void this.read(), this.intervalMs);
      yield first;
      for (;;) {
        if (!me.latest) await new Promise<void>((resolve) => (me.wake = resolve));
        const next = me.latest!;
        me.latest = null;
        yield next;
      }
    } finally {
      this.subscribers.delete(me);
      if (this.subscribers.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    }
  }

  private async read(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      const status = await crawlerStatus(this.db, this.clock(), this.recentMinutes);
      for (const subscriber of this.subscribers) {
        subscriber.latest = status;
        subscriber.wake?.();
        subscriber.wake = null;
      }
    } catch (error) {
      this.logger.warn(
        { err: error },
        'crawler status not read; the consoles keep the last one until the next interval',
      );
    } finally {
      this.reading = false;
    }
  }
}

export class CrawlerStatusFeed {
  private readonly pollers = new Map<number, StatusPoller>();

  constructor(
    private readonly db: Queryable,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
    private readonly intervalMs = STATUS_INTERVAL_MS,
  ) {}

  follow(recentMinutes: number): AsyncGenerator<CrawlerStatus> {
    let poller = this.pollers.get(recentMinutes);
    if (!poller) {
      poller = new StatusPoller(this.db, this.logger, recentMinutes, this.intervalMs, this.clock);
      this.pollers.set(recentMinutes, poller);
    }
    return poller.follow();
  }
}
