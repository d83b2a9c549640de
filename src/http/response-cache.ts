// The response cache of the global catalog GET routes: the serialized /v1 body of a route called
// with the same canonical parameters is reused for at most RESPONSE_CACHE_TTL_MS (10 s by default),
// in this process's memory. Only routes whose answer is the same for every caller are cached (never
// scrapes or Signals, which are scoped to the caller's account); the cache sits behind the access
// hook, so every request is still authenticated, charged against its quotas and rate limit, and
// answered with its own rate-limit headers and request id.
//
// A finished scrape rewrites its store: its event (scrape-events.ts, shared by every replica through
// the pub/sub) drops the cached answers about that domain and every answer not about one domain
// (searches, analytics, apps, changes: any of them may include the store), at once. Other catalog
// writers (the seeder, rollup refreshes) are covered by the TTL: nothing is served staler than it.
import { LRUCache } from 'lru-cache';
import type { Logger } from '../platform/logger.ts';
import type { PubSub } from '../platform/pubsub/pubsub.ts';
import { RECENT_SCRAPES_CHANNEL } from '../scrapes/scrape-events.ts';
import { isFinished, type ScrapeRecord } from '../scrapes/scrape-record.ts';

/** RESPONSE_CACHE_TTL_MS's default: the freshness bound stated in the decisions */
export const DEFAULT_RESPONSE_CACHE_TTL_MS = 10_000;

/** The catalog routes (operationIds) whose answers depend only on their parameters, never on the caller. */
export const CACHED_CATALOG_OPERATIONS: ReadonlySet<string> = new Set([
  'searchStores',
  'compareStores',
  'getStore',
  'listStoreProducts',
  'listStoreHistory',
  'getStoreTraffic',
  'listStoreApps',
  'searchProducts',
  'listProductChanges',
  'getProduct',
  'listChanges',
  'getAnalyticsOverview',
  'listVerticalStats',
  'listCountryStats',
  'listMovers',
  'searchApps',
  'getApp',
  'listAppStores',
]);

export interface CachedResponse {
  status: number;
  /** the JSON body, serialized once */
  body: string;
}

interface Entry extends CachedResponse {
  /** the one store domain the answer is about (its path names it); absent = it may hold any store */
  domain?: string;
}

export interface ResponseCacheOptions {
  ttlMs: number;
  maxEntries?: number;
  /** total bytes of cached bodies */
  maxBytes?: number;
}

const DEFAULT_MAX_ENTRIES = 20_000;
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

export class ResponseCache {
  private readonly entries: LRUCache<string, Entry>;
  /** bumped by every invalidation: an answer read before it must not be stored after it */
  private generation = 0;
  /** loads under way, by key */
  private readonly loading = new Map<string, Promise<CachedResponse>>();

  constructor(options: ResponseCacheOptions) {
    this.entries = new LRUCache<string, Entry>({
      max: options.maxEntries ?? DEFAULT_MAX_ENTRIES,
      maxSize: options.maxBytes ?? DEFAULT_MAX_BYTES,
      sizeCalculation: (entry) => Math.max(1, entry.body.length),
      ttl: options.ttlMs,
      // an expired answer is never served, not even once while it is being replaced
      allowStale: false,
    });
  }

  /** The key of a route called with these (parsed, so already canonical) parameters. */
  static keyOf(operationId: string, params: Record<string, unknown>): string {
    return `${operationId} ${JSON.stringify(params, (_key, value: unknown) => (isPlainObject(value) ? sortedKeys(value) : value))}`;
  }

  /**
   * The cached answer, or the one `load` produces. Concurrent misses of one key share a single
   * load (its answer or its error), so a burst of identical requests costs one execution. A 200
   * answer is kept unless an invalidation happened while it was being read.
   */
  async getOrLoad(key: string, domain: string | undefined, load: () => Promise<CachedResponse>): Promise<CachedResponse> {
    const hit = this.entries.get(key);
    if (hit) return hit;
    const pending = this.loading.get(key);
    if (pending) return pending;

    const generation = this.generation;
    const loading = load().then((response) => {
      if (response.status === 200 && generation === this.generation) this.entries.set(key, { ...response, domain });
      return response;
    });
    this.loading.set(key, loading);
    const forget = () => {
      if (this.loading.get(key) === loading) this.loading.delete(key);
    };
    loading.then(forget, forget);
    return loading;
  }

  /** A store changed: drops the answers about its domain and every answer that may list it. */
  invalidateDomain(domain: string): void {
    this.generation++;
    // reads under way began before the change: later requests must not join them
    this.loading.clear();
    for (const [key, entry] of this.entries.entries()) {
      if (entry.domain === undefined || entry.domain === domain) this.entries.delete(key);
    }
  }

  clear(): void {
    this.generation++;
    this.loading.clear();
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Follows the scrape events: each finished scrape (done, or failed after it may have rewritten the
 * legacy summary) invalidates its domain. Returns the unsubscribe function.
 */
export function invalidateOnScrapes(cache: ResponseCache, pubsub: PubSub, logger: Logger): () => Promise<void> {
  const subscription = pubsub
    .subscribe(
      RECENT_SCRAPES_CHANNEL,
      (record: ScrapeRecord) => {
        if (isFinished(record.status)) cache.invalidateDomain(record.domain);
      },
      {},
    )
    .catch((error: unknown) => {
      // without the events, scraped stores are refreshed by the TTL alone
      logger.warn({ err: { message: (error as Error).message } }, 'response cache not subscribed to scrape events');
      return undefined;
    });
  return async () => {
    const id = await Promise.race([subscription, Promise.resolve(undefined)]);
    if (id !== undefined) pubsub.unsubscribe(id);
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

const sortedKeys = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(value).sort().map((key) => [key, value[key]]));
