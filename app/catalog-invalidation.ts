// The response cache follows the catalog's writers: the scrape and observation events (features of
// their own) reach the cache (src/http) here, in the composition root, so neither side imports the other.
import type { ResponseCache } from '../src/http/response-cache.ts';
import type { Logger } from '../src/platform/logger.ts';
import type { PubSub } from '../src/platform/pubsub/pubsub.ts';
import { RECENT_SCRAPES_CHANNEL } from '../src/scrapes/scrape-events.ts';
import { isFinished, type ScrapeRecord } from '../src/scrapes/scrape-record.ts';
import {
  STORE_OBSERVED_CHANNEL,
  type StoreObservedEvent,
} from '../src/storefront/observation-events.ts';

/**
 * Follows the catalog's writes: each finished scrape (done, or failed after it may have rewritten
 * the legacy summary) invalidates its domain; each scheduled or discovery observation drops the
 * answers about its store. Both again after `replayBoundMs` when catalog reads may come from
 * replicas that lag by up to that. Returns the unsubscribe function.
 */
export function invalidateOnCatalogWrites(
  cache: Pick<ResponseCache, 'invalidateDomain' | 'dropStore'>,
  pubsub: PubSub,
  logger: Logger,
  replayBoundMs?: number,
): () => Promise<void> {
  const again = new Set<NodeJS.Timeout>();
  const dropNowAndAfterReplay = (drop: () => void) => {
    drop();
    if (replayBoundMs === undefined) return;
    const timer = setTimeout(() => {
      again.delete(timer);
      drop();
    }, replayBoundMs);
    timer.unref();
    again.add(timer);
  };
  const subscribe = <T>(channel: string, handle: (message: T) => void) =>
    pubsub.subscribe(channel, handle, {}).catch((error: unknown) => {
      // without the events, changed stores are refreshed by the TTL alone
      logger.warn(
        { err: { message: (error as Error).message }, channel },
        'response cache not subscribed to catalog events',
      );
      return undefined;
    });
  const subscriptions = [
    subscribe<ScrapeRecord>(RECENT_SCRAPES_CHANNEL, (record) => {
      if (isFinished(record.status))
        dropNowAndAfterReplay(() => cache.invalidateDomain(record.domain));
    }),
    subscribe<StoreObservedEvent>(STORE_OBSERVED_CHANNEL, (event) =>
      dropNowAndAfterReplay(() => cache.dropStore(event.domain)),
    ),
  ];
  return async () => {
    again.forEach(clearTimeout);
    for (const subscription of subscriptions) {
      const id = await Promise.race([subscription, Promise.resolve(undefined)]);
      if (id !== undefined) pubsub.unsubscribe(id);
    }
  };
}
