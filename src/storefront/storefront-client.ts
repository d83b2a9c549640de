// Every request to a storefront goes through here: one GET of a path of the store's own host,
// following only redirects that stay on the same storefront (http -> https, www), waiting out
// short rate limits (429, or 503 with Retry-After) within the read. A redirect to another host
// means the store moved: nothing of that host is ever read under this store's name.
import { setTimeout as sleep } from 'node:timers/promises';
import { EgressError } from '../platform/egress/egress-error.ts';
import type { Egress, EgressResponse } from '../platform/egress/egress.ts';
import { sameStorefront } from '../stores/domain.ts';
import { fromEgressError, StorefrontFailure } from './storefront-failure.ts';

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
  egress: Egress,
  domain: string,
  path: string,
  options: { maxRedirects?: number } = {},
): Promise<EgressResponse> {
  const bare = path.split('?')[0]!;
  const accept = bare.endsWith('.json') || bare.endsWith('.js') ? 'application/json' : 'text/html';
  for (let attempt = 0; ; attempt++) {
    let response: EgressResponse;
    try {
      response = await egress.fetch(storefrontUrl(domain, path), {
        maxRedirects: options.maxRedirects ?? 5,
        followsTo: sameStorefront,
        headers: { accept },
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

/** The body as JSON, or a `malformed` failure naming `what`. */
export function jsonOf(response: EgressResponse, what: string): unknown {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new StorefrontFailure('malformed', `${what} is not JSON`);
  }
}
