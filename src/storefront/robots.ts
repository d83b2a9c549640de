// robots.txt, honoured for every path a storefront read asks for (RFC 9309). The rules of a host
// are fetched once and kept ROBOTS_TTL_MS in this process; our group is the one naming our product
// token (CRAWLER_TOKEN), else `*`. As the RFC says: a robots.txt that is not there (4xx) allows
// everything; one that fails with a 5xx, or answers 429, disallows everything until it answers
// again (the read fails as server_error or rate_limited, keeping its Retry-After, and is retried
// later: a busy host is never read as one that allows all). A Crawl-delay of our group spaces our requests to
// the host at least that far apart (capped at MAX_CRAWL_DELAY_S).
import { LRUCache } from 'lru-cache';
import robotsParserModule from 'robots-parser';
import { EgressError } from '../platform/egress/egress-error.ts';
import type { EgressRequest, EgressResponse } from '../platform/egress/egress.ts';
import { sameStorefront } from '../stores/domain.ts';
import {
  fromEgressError,
  retryAfterSeconds,
  StorefrontFailure,
  statusKind,
} from './storefront-failure.ts';

/** the product token our User-Agent starts with, which robots.txt groups name */
export const CRAWLER_TOKEN = 'store-intelligence-scraper';
export const ROBOTS_TTL_MS = 60 * 60_000;
export const MAX_CRAWL_DELAY_S = 30;
/** robots.txt files past this size are read up to here (RFC 9309 asks for at least 500 KiB) */
const MAX_ROBOTS_BYTES = 512 * 1024;

export interface HostRules {
  /** whether our crawler may read `path` (path and query) of the host */
  allows(path: string): boolean;
  /** milliseconds between our requests the host asks for, 0 when it asks for none */
  crawlDelayMs: number;
}

// the package's types declare an ES default export; at run time module.exports is the function itself
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

const ALLOW_ALL: HostRules = { allows: () => true, crawlDelayMs: 0 };

export class RobotsRules {
  private readonly cache = new LRUCache<string, Promise<HostRules>>({
    max: 10_000,
    ttl: ROBOTS_TTL_MS,
  });

  /** `fetch` GETs a path of a store's host (storefront-client.ts: the host that answers for the domain) */
  constructor(
    private readonly fetch: (
      domain: string,
      path: string,
      request: EgressRequest,
    ) => Promise<EgressResponse>,
  ) {}

  /** The rules of `domain`'s host; a failure to learn them is the read's failure. */
  rulesFor(domain: string): Promise<HostRules> {
    let rules = this.cache.get(domain);
    if (!rules) {
      rules = this.fetchRules(domain);
      this.cache.set(domain, rules);
      // a failure is not kept: the next read asks again
      rules.catch(() => this.cache.delete(domain));
    }
    return rules;
  }

  private async fetchRules(domain: string): Promise<HostRules> {
    const url = `https://${domain}/robots.txt`;
    let response;
    try {
      response = await this.fetch(domain, '/robots.txt', {
        maxRedirects: 5,
        followsTo: sameStorefront,
        headers: { accept: 'text/plain' },
      });
    } catch (error) {
      // a robots.txt on another host is not read: as one that is unavailable, it allows (the
      // store's own pages then show it moved, and nothing of the other host is read)
      if (error instanceof EgressError && error.failure === 'moved') return ALLOW_ALL;
      if (error instanceof EgressError) throw fromEgressError(error);
      throw error;
    }
    if (response.status >= 400 && response.status < 500 && response.status !== 429)
      return ALLOW_ALL;
    if (response.status !== 200) {
      const retryAfter = retryAfterSeconds(response.headers['retry-after']);
      throw new StorefrontFailure(
        statusKind(response.status),
        `robots.txt of ${domain} answered HTTP ${response.status}${retryAfter !== undefined ? ` (Retry-After ${retryAfter} s)` : ''}; ` +
          'nothing of the store is read until it answers',
        { retryAfterSeconds: retryAfter },
      );
    }
    const robots = robotsParser(url, response.body.subarray(0, MAX_ROBOTS_BYTES).toString('utf8'));
    const delay = robots.getCrawlDelay(CRAWLER_TOKEN);
    return {
      allows: (path) => robots.isAllowed(new URL(path, url).toString(), CRAWLER_TOKEN) !== false,
      crawlDelayMs: delay && delay > 0 ? Math.min(delay, MAX_CRAWL_DELAY_S) * 1000 : 0,
    };
  }
}
