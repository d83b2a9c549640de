// A scrape that cannot succeed, with the reason shown to the caller (failureReason, scrape.failed).
// Anything else thrown during a scrape is an internal fault: the job is retried.

export class ScrapeFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScrapeFailure';
  }
}
