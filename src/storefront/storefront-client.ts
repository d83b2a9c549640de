// Every request to a storefront goes through here: one GET of a path of the store's own host, if
// the store is not synthetic (a reserved .example domain is never contacted; the demo storefronts
// served in-process answer for it in development) and its robots.txt
// allows the path, paced per host (at least its Crawl-delay apart), following only redirects that
// stay on the same storefront (http -> https, www), waiting out short rate limits (429, or 503
// with Retry-After) within the read. A longer Retry-After ends the read and holds the host off in
// this process until then: any read of it (a scrape, a probe, an observation) fails at once as
// rate_limited instead of asking again. A redirect to another host means the store moved: nothing
// of that host is ever read under this store's name.
import { setTimeout as sleep } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import { EgressError } from '../platform/egress/egress-error.ts';
import type { Egress, EgressResponse } from '../platform/egress/egress.ts';
import { storefrontEgress } from '../platform/egress/egress-from-config.ts';
import type { Services } from '../platform/services.ts';
import { isSyntheticDomain, sameStorefront } from '../stores/domain.ts';
import { CRAWLER_TOKEN, RobotsRules } from './robots.ts';
import { fromEgressError, StorefrontFailure, statusKind } from './storefront-failure.ts';

/** What reads storefronts: the process's storefront egress client, the robots.txt rules it learned and the hosts holding it off. */
export interface StorefrontClient {
  egress: Egress;
  robots: RobotsRules;
  /** domain -> until when (epoch ms) it asked us to wait */
  heldOff: LRUCache<string, number>;
}

export const createStorefrontClient = (egress: Egress): StorefrontClient => ({
  egress,
  robots: new RobotsRules(egress),
  heldOff: new LRUCache<string, number>({ max: 100_000 }),
});

const clients = new WeakMap<Services, StorefrontClient>();

/** The process's one storefront client: scrapes, Signals and the scheduler share its pacing and robots rules. */
export function storefrontClient(services: Services): StorefrontClient {
  let client = clients.get(services);
  if (!client) {
    client = createStorefrontClient(storefrontEgress(services));
    clients.set(services, client);
  }
  return client;
}

/** Rate limits (429, or 503 with Retry-After) are waited out within a read up to these bounds. */
export const RATE_LIMIT_RETRIES = 3;
export const RATE_LIMIT_MAX_WAIT_S = 30;

/** Seconds a Retry-After header asks for (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim());
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

const storefrontUrl = (domain: string, path: string) => new URL(path, `https://${domain}`);

/** GET `path` of the storefront `domain`; a non-2xx answer is returned for the caller to judge. */
export async function getStorefrontPath(
  client: StorefrontClient,
  domain: string,
  path: string,
  options: { maxRedirects?: number } = {},
): Promise<EgressResponse> {
  const bare = path.split('?')[0]!;
  // a synthetic store is read only from the in-process demo storefronts, never from the network
  if (isSyntheticDomain(domain) && !client.egress.overridden?.(domain)) {
    throw new StorefrontFailure('synthetic', `${domain} is a synthetic store (the reserved .example domain): it is never contacted`);
  }
  const heldUntil = client.heldOff.get(domain);
  if (heldUntil !== undefined && heldUntil > Date.now()) {
    const wait = Math.ceil((heldUntil - Date.now()) / 1000);
    throw new StorefrontFailure('rate_limited', `${domain} asked us to wait; ${wait} s to go, nothing is asked of it meanwhile`, {
      retryAfterSeconds: wait,
    });
  }
  const rules = await client.robots.rulesFor(domain);
  if (!rules.allows(path)) {
    throw new StorefrontFailure('robots', `robots.txt of ${domain} disallows ${bare} for ${CRAWLER_TOKEN}; it is not read`);
  }
  const accept = bare.endsWith('.json') || bare.endsWith('.js') ? 'application/json' : 'text/html';
  for (let attempt = 0; ; attempt++) {
    let response: EgressResponse;
    try {
      response = await client.egress.fetch(storefrontUrl(domain, path), {
        maxRedirects: options.maxRedirects ?? 5,
        followsTo: sameStorefront,
        headers: { accept },
        hostIntervalMs: rules.crawlDelayMs,
      });
    } catch (error) {
      if (error instanceof EgressError && error.failure === 'moved') {
        const to = error.location!.host;
        throw new StorefrontFailure(
          'moved',
          `${domain} moved: ${bare} redirects to ${to}, another host; nothing of ${to} is saved under ${domain} (request a scrape of ${to})`,
          { movedTo: to },
        );
      }
      if (error instanceof EgressError) throw fromEgressError(error);
      throw error;
    }
    const limited = response.status === 429 || (response.status === 503 && response.headers['retry-after'] !== undefined);
    if (!limited) return response;
    const wait = retryAfterSeconds(response.headers['retry-after']) ?? 1;
    if (attempt >= RATE_LIMIT_RETRIES || wait > RATE_LIMIT_MAX_WAIT_S) {
      client.heldOff.set(domain, Date.now() + wait * 1000);
      throw new StorefrontFailure(
        'rate_limited',
        `${domain} rate-limited ${bare} (HTTP ${response.status}, Retry-After ${response.headers['retry-after'] ?? 'absent'}) ` +
          `after ${attempt + 1} attempts; the scrape waits at most ${RATE_LIMIT_MAX_WAIT_S} s at a time, ${RATE_LIMIT_RETRIES} times`,
        { retryAfterSeconds: wait },
      );
    }
    await sleep(wait * 1000);
  }
}

/** The failure of an unexpected answer, keeping the Retry-After it asked for (a 5xx may carry one too). */
export const answerFailure = (response: EgressResponse, message: string): StorefrontFailure =>
  new StorefrontFailure(statusKind(response.status), message, { retryAfterSeconds: retryAfterSeconds(response.headers['retry-after']) });

/** The body as JSON, or a `malformed` failure naming `what`. */
export function jsonOf(response: EgressResponse, what: string): unknown {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new StorefrontFailure('malformed', `${what} is not JSON`);
  }
}
