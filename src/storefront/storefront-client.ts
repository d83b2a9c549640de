// Every request to a storefront goes through here: one GET of a path of the store's own host, if
// the store is not synthetic (a reserved .example domain is never contacted; the demo storefronts
// served in-process answer for it in development) and its robots.txt allows the path, paced per host (at least its Crawl-delay apart, one request in flight: the
// egress client's host gate), following only redirects that stay on the same storefront (http ->
// https, www), waiting out short rate limits (429, or 503 with Retry-After) within the read. A
// longer Retry-After (on any path, robots.txt included) ends the read and holds the store off until
// then, in crawler_host_holds when the client has the database: any read of it by any process (a
// scrape, a probe, an observation, discovery), before or after a restart, fails at once as
// rate_limited instead of asking again. A store's name that does not answer (no DNS, connection
// refused) is tried in its other form (apex <-> www) before the read fails. A redirect to another
// host means the store moved: nothing of that host is ever read under this store's name.
import { setTimeout as sleep } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import { EgressError } from '../platform/egress/egress-error.ts';
import type { Egress, EgressRequest, EgressResponse } from '../platform/egress/egress.ts';
import { storefrontEgress } from '../platform/egress/egress-from-config.ts';
import type { Services } from '../platform/services.ts';
import { isSyntheticDomain, sameStorefront } from '../stores/domain.ts';
import { databaseHostHolds, type HostHolds } from './host-holds.sql.ts';
import { CRAWLER_TOKEN, RobotsRules } from './robots.ts';
import {
  fromEgressError,
  retryAfterSeconds,
  StorefrontFailure,
  statusKind,
} from './storefront-failure.ts';
import { cleanText, parseStorefrontJson } from './storefront-text.ts';

export { retryAfterSeconds };

/** What reads storefronts: the process's storefront egress client, the robots.txt rules it learned and the hosts holding it off. */
export interface StorefrontClient {
  egress: Egress;
  robots: RobotsRules;
  /** domain -> until when (epoch ms) it asked us to wait */
  heldOff: LRUCache<string, number>;
  /** where holds outlive the process (absent: this process only) */
  holds?: HostHolds;
  /** domains whose durable hold was looked up lately (a hold another process wrote shows within HOLD_RECHECK_MS) */
  holdsChecked: LRUCache<string, true>;
  /** domain -> the host name that answers for it (the domain itself, or its www. form) */
  hosts: LRUCache<string, string>;
  /** domain -> the form a caller named it by, asked first by its next read (nameFirst) */
  named: LRUCache<string, string>;
}

/** how long a "no durable hold" answer is believed before the database is asked again */
export const HOLD_RECHECK_MS = 30_000;

export function createStorefrontClient(egress: Egress, holds?: HostHolds): StorefrontClient {
  const client: StorefrontClient = {
    egress,
    robots: undefined as unknown as RobotsRules,
    heldOff: new LRUCache<string, number>({ max: 100_000 }),
    holds,
    holdsChecked: new LRUCache<string, true>({ max: 100_000, ttl: HOLD_RECHECK_MS }),
    hosts: new LRUCache<string, string>({ max: 100_000 }),
    named: new LRUCache<string, string>({ max: 10_000 }),
  };
  client.robots = new RobotsRules((domain, path, request) =>
    fetchStorefront(client, domain, path, request),
  );
  return client;
}

const clients = new WeakMap<Services, StorefrontClient>();

/** The process's one storefront client: scrapes, Signals and the scheduler share its pacing, robots rules and holds. */
export function storefrontClient(services: Services): StorefrontClient {
  let client = clients.get(services);
  if (!client) {
    client = createStorefrontClient(
      storefrontEgress(services),
      databaseHostHolds(services.db.pool),
    );
    clients.set(services, client);
  }
  return client;
}

/** The other form of a store's name: www.example.com for example.com, and back. */
const otherForm = (host: string) => (host.startsWith('www.') ? host.slice(4) : `www.${host}`);

/** Whether a failure says the name itself does not answer (rather than the store answering badly). */
const nameDoesNotAnswer = (error: unknown) =>
  error instanceof EgressError &&
  (error.failure === 'unresolvable' || error.failure === 'connection');

/**
 * The next read of `domain` asks `host` first, the form a caller gave (www.example.com for
 * example.com), and its other form only when that name does not answer; a name that is neither
 * form of the domain is ignored.
 */
export function nameFirst(client: StorefrontClient, domain: string, host: string): void {
  const named = host.toLowerCase();
  if (named === domain || named === `www.${domain}`) client.named.set(domain, named);
}

/** `host` answered for `domain`: later reads go there, and a caller's named form has been asked. */
function answeredAt(client: StorefrontClient, domain: string, host: string): void {
  client.hosts.set(domain, host);
  client.named.delete(domain);
}

/**
 * GET `path` of the storefront `domain` at the host that answers for it: the form a caller named
 * (nameFirst), else the one that answered before, else the domain as named; when that name does not
 * resolve or refuses the connection, its other form. The form that answers is remembered.
 */
export async function fetchStorefront(
  client: StorefrontClient,
  domain: string,
  path: string,
  request: EgressRequest,
): Promise<EgressResponse> {
  const known = client.hosts.get(domain);
  const first = client.named.get(domain) ?? known ?? domain;
  try {
    const response = await client.egress.fetch(new URL(path, `https://${first}`), request);
    answeredAt(client, domain, first);
    return response;
  } catch (error) {
    // a form that answered before is not traded for the other on a failure of its own
    if (first === known || !nameDoesNotAnswer(error)) throw error;
    try {
      const response = await client.egress.fetch(
        new URL(path, `https://${otherForm(first)}`),
        request,
      );
      answeredAt(client, domain, otherForm(first));
      return response;
    } catch (second) {
      // the form the caller gave is the one its failure names
      if (nameDoesNotAnswer(second)) throw error;
      throw second;
    }
  }
}

/** Holds `domain` off until `untilMs`, in this process and (when the client has them) in the durable holds. */
export async function holdOff(
  client: StorefrontClient,
  domain: string,
  untilMs: number,
  reason: string,
): Promise<void> {
  client.heldOff.set(domain, Math.max(untilMs, client.heldOff.get(domain) ?? 0));
  await client.holds?.hold(domain, untilMs, reason);
}

/** Fails as rate_limited when `domain` asked us to wait and that time is still ahead. */
async function refuseIfHeld(client: StorefrontClient, domain: string): Promise<void> {
  let heldUntil = client.heldOff.get(domain);
  if (
    (heldUntil === undefined || heldUntil <= Date.now()) &&
    client.holds &&
    !client.holdsChecked.has(domain)
  ) {
    heldUntil = await client.holds.heldUntil(domain);
    if (heldUntil !== undefined) client.heldOff.set(domain, heldUntil);
    else client.holdsChecked.set(domain, true);
  }
  if (heldUntil !== undefined && heldUntil > Date.now()) {
    const wait = Math.ceil((heldUntil - Date.now()) / 1000);
    throw new StorefrontFailure(
      'rate_limited',
      `${domain} asked us to wait; ${wait} s to go, nothing is asked of it meanwhile`,
      {
        retryAfterSeconds: wait,
      },
    );
  }
}

/** Rate limits (429, or 503 with Retry-After) are waited out within a read up to these bounds. */
export const RATE_LIMIT_RETRIES = 3;
export const RATE_LIMIT_MAX_WAIT_S = 30;

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
    throw new StorefrontFailure(
      'synthetic',
      `${domain} is a synthetic store (the reserved .example domain): it is never contacted`,
    );
  }
  await refuseIfHeld(client, domain);
  const rules = await client.robots.rulesFor(domain).catch(async (error: unknown) => {
    // robots.txt asking us to wait (429, or a 5xx with Retry-After) holds the whole store off
    if (error instanceof StorefrontFailure && error.details.retryAfterSeconds !== undefined) {
      await holdOff(
        client,
        domain,
        Date.now() + error.details.retryAfterSeconds * 1000,
        error.message,
      );
    }
    throw error;
  });
  if (!rules.allows(path)) {
    throw new StorefrontFailure(
      'robots',
      `robots.txt of ${domain} disallows ${bare} for ${CRAWLER_TOKEN}; it is not read`,
    );
  }
  const accept = bare.endsWith('.json') || bare.endsWith('.js') ? 'application/json' : 'text/html';
  for (let attempt = 0; ; attempt++) {
    let response: EgressResponse;
    try {
      response = await fetchStorefront(client, domain, path, {
        maxRedirects: options.maxRedirects ?? 5,
        followsTo: sameStorefront,
        headers: { accept },
        hostIntervalMs: rules.crawlDelayMs,
      });
    } catch (error) {
      if (error instanceof EgressError && error.failure === 'moved') {
        const to = error.location!.hostname;
        throw new StorefrontFailure(
          'moved',
          `${domain} moved: ${bare} redirects to ${to}, another host; nothing of ${to} is saved under ${domain} (request a scrape of ${to})`,
          { movedTo: to },
        );
      }
      if (error instanceof EgressError) throw fromEgressError(error);
      throw error;
    }
    if (response.url.pathname === '/password' && bare !== '/password') {
      throw new StorefrontFailure('password_protected', passwordProtected(domain, bare));
    }
    const limited =
      response.status === 429 ||
      (response.status === 503 && response.headers['retry-after'] !== undefined);
    if (!limited) return response;
    const wait = retryAfterSeconds(response.headers['retry-after']) ?? 1;
    if (attempt >= RATE_LIMIT_RETRIES || wait > RATE_LIMIT_MAX_WAIT_S) {
      const failure = new StorefrontFailure(
        'rate_limited',
        `${domain} rate-limited ${bare} (HTTP ${response.status}, Retry-After ${response.headers['retry-after'] ?? 'absent'}) ` +
          `after ${attempt + 1} attempts; the scrape waits at most ${RATE_LIMIT_MAX_WAIT_S} s at a time, ${RATE_LIMIT_RETRIES} times`,
        { retryAfterSeconds: wait },
      );
      await holdOff(client, domain, Date.now() + wait * 1000, failure.message);
      throw failure;
    }
    await sleep(wait * 1000);
  }
}

/** The reason given when a store asks for its password: a temporary state, tried again later. */
export const passwordProtected = (domain: string, path: string) =>
  `${domain} is password protected (${path} leads to its password page); it is tried again later`;

/** The failure of an unexpected answer, keeping the Retry-After it asked for (a 5xx may carry one too). */
export const answerFailure = (response: EgressResponse, message: string): StorefrontFailure =>
  new StorefrontFailure(statusKind(response.status), message, {
    retryAfterSeconds: retryAfterSeconds(response.headers['retry-after']),
  });

/** The body as text fit to keep (storefront-text.ts). */
export const textOf = (response: EgressResponse): string =>
  cleanText(response.body.toString('utf8'));

/** The body as JSON with its strings fit to keep, or a `malformed` failure naming `what`. */
export function jsonOf(response: EgressResponse, what: string): unknown {
  try {
    return parseStorefrontJson(response.body.toString('utf8'));
  } catch {
    throw new StorefrontFailure('malformed', `${what} is not JSON`);
  }
}
