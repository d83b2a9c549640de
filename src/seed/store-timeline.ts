// When things happened to one store: first seen at least as long ago as the history window, last
// scraped within the past week, changes inside the 90 days before that scrape.
import { isoTimestamp } from './iso-time.ts';
import type { Random } from './random.ts';
import { CHANGE_WINDOW_DAYS, DAY_MS, HISTORY_DAYS } from './seed-context.ts';

export class StoreTimeline {
  readonly firstSeenMs: number;
  readonly lastScrapedMs: number;
  /** start of the change window (CHANGE_WINDOW_DAYS before the last scrape) */
  private readonly windowStartMs: number;
  /** midnight UTC of the first history day */
  private readonly historyStartMs: number;

  constructor(
    private readonly rng: Random,
    todayMs: number,
  ) {
    this.firstSeenMs =
      todayMs - (HISTORY_DAYS + 1) * DAY_MS - Math.floor(rng.next() * 900 * DAY_MS);
    this.lastScrapedMs = todayMs - 1 - Math.floor(rng.next() * 7 * DAY_MS);
    this.windowStartMs = this.lastScrapedMs - CHANGE_WINDOW_DAYS * DAY_MS;
    this.historyStartMs = todayMs - (HISTORY_DAYS - 1) * DAY_MS;
  }

  /** a moment inside the change window */
  recent(): number {
    return this.lastScrapedMs - Math.floor(this.rng.next() * CHANGE_WINDOW_DAYS * DAY_MS);
  }

  /** a moment between first sight and the change window */
  older(): number {
    return this.firstSeenMs + Math.floor(this.rng.next() * (this.windowStartMs - this.firstSeenMs));
  }

  /** whether a moment falls inside the change window (the change records cover it) */
  inChangeWindow(ms: number): boolean {
    return ms >= this.windowStartMs && ms <= this.lastScrapedMs;
  }

  /** the history day a moment falls on; negative before the history window */
  dayIndex(ms: number): number {
    return Math.floor((ms - this.historyStartMs) / DAY_MS);
  }

  iso(ms: number): string {
    return isoTimestamp(ms);
  }
}
