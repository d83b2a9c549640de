// Status events of scrape requests on the shared pub/sub (Redis with REDIS_URL): one channel per
// request and one for all of them (dashboards). Whichever process moves a request forward
// publishes; subscribers on every replica receive it. A failed publish is logged, never fatal: the
// status record in PostgreSQL stays the truth that GET /v1/scrapes/{id} reads.
import type { Logger } from '../platform/logger.ts';
import type { PubSub } from '../platform/pubsub/pubsub.ts';
import type { ScrapeRecord } from './scrape-record.ts';

export const scrapeChannel = (id: string) => `scrapes:status:${id}`;
export const RECENT_SCRAPES_CHANNEL = 'scrapes:recent';

export async function publishScrape(
  pubsub: PubSub,
  logger: Logger,
  record: ScrapeRecord,
): Promise<void> {
  try {
    await Promise.all([
      pubsub.publish(scrapeChannel(record.id), record),
      pubsub.publish(RECENT_SCRAPES_CHANNEL, record),
    ]);
  } catch (error) {
    logger.warn(
      { err: error, scrapeId: record.id, status: record.status },
      'scrape status event not published',
    );
  }
}
