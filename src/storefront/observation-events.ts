// "A store was observed": published on the shared pub/sub after a scheduled or discovery
// observation commits, so every replica's response cache drops the answers about that store's
// domain at once (answers that list many stores keep their short TTL: at many observations a
// second, dropping them on each would leave nothing cached). A failed publish is logged, never
// fatal: the TTL bounds how stale an answer can be anyway.
import type { Logger } from '../platform/logger.ts';
import type { PubSub } from '../platform/pubsub/pubsub.ts';

export const STORE_OBSERVED_CHANNEL = 'catalog:observed';

export interface StoreObservedEvent {
  domain: string;
}

export async function publishStoreObserved(
  pubsub: PubSub,
  logger: Logger,
  domain: string,
): Promise<void> {
  try {
    await pubsub.publish(STORE_OBSERVED_CHANNEL, { domain } satisfies StoreObservedEvent);
  } catch (error) {
    logger.warn({ err: error, domain }, 'store observed event not published');
  }
}
