// Per-host politeness: request starts to one host are spaced at least `intervalMs` apart within
// this process, so a scrape paging through a storefront never bursts at it. A request may ask for
// a longer spacing for its host (a robots.txt Crawl-delay).

export class HostPacer {
  private readonly nextStart = new Map<string, number>();

  constructor(private readonly intervalMs: number) {}

  async wait(host: string, atLeastMs = 0): Promise<void> {
    const interval = Math.max(this.intervalMs, atLeastMs);
    if (interval <= 0) return;
    const now = Date.now();
    const startAt = Math.max(now, this.nextStart.get(host) ?? 0);
    this.nextStart.set(host, startAt + interval);
    if (this.nextStart.size > 1_000) this.forgetPast(now);
    if (startAt > now) await new Promise((resolve) => setTimeout(resolve, startAt - now));
  }

  private forgetPast(now: number): void {
    for (const [host, at] of this.nextStart) if (at <= now) this.nextStart.delete(host);
  }
}
