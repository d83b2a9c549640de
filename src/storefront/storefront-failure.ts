// A storefront that cannot be read, with a reason a person can act on (a scrape's failureReason,
// a probe's error, an observation's failure) and a kind the scheduler counts and reacts to: a
// store whose storefront is gone (its name no longer resolves, its homepage or products.json is
// not found, it is no longer a Shopify storefront, it moved to another host) is treated apart
// from one that is only busy or briefly unreachable. Anything else thrown while reading a
// storefront is a fault of ours.
import type { EgressError } from '../platform/egress/egress-error.ts';

export const STOREFRONT_FAILURE_KINDS = [
  /** the domain does not resolve (DNS gone) */
  'unresolvable',
  /** connection refused or reset, TLS not trusted, no answer in time */
  'unreachable',
  /** the egress rules refuse it (a private address, a scheme we do not fetch) */
  'refused',
  /** it redirects to another host: the store moved */
  'moved',
  /** the homepage or products.json answers 404 or 410 */
  'not_found',
  /** the homepage carries no Shopify markers */
  'not_shopify',
  /** 429, or 503 with Retry-After, past what one read waits */
  'rate_limited',
  /** any other 5xx */
  'server_error',
  /** any other unexpected status */
  'http_error',
  /** a document that is not what a storefront serves (not JSON, not a product list, too large) */
  'malformed',
  /** the store shows its password page (closed to visitors for now): tried again later */
  'password_protected',
  /** robots.txt disallows a path the read needs */
  'robots',
  /** a synthetic store (reserved .example domain): never contacted */
  'synthetic',
] as const;
export type StorefrontFailureKind = (typeof STOREFRONT_FAILURE_KINDS)[number];

/** Kinds that say the storefront is gone rather than busy: they count towards a store's vanishing. */
export const GONE_KINDS: ReadonlySet<StorefrontFailureKind> = new Set([
  'unresolvable',
  'moved',
  'not_found',
  'not_shopify',
]);

export class StorefrontFailure extends Error {
  constructor(
    readonly kind: StorefrontFailureKind,
    message: string,
    readonly details: { retryAfterSeconds?: number; movedTo?: string } = {},
  ) {
    super(message);
    this.name = 'StorefrontFailure';
  }
}

const EGRESS_KINDS: Record<EgressError['failure'], StorefrontFailureKind> = {
  unresolvable: 'unresolvable',
  refused_address: 'refused',
  refused_scheme: 'refused',
  timeout: 'unreachable',
  connection: 'unreachable',
  too_many_redirects: 'unreachable',
  too_large: 'malformed',
  moved: 'moved',
};

/** The failure of a request the egress client could not complete (its message names host and cause). */
export const fromEgressError = (error: EgressError): StorefrontFailure =>
  new StorefrontFailure(
    EGRESS_KINDS[error.failure],
    error.message,
    error.location ? { movedTo: error.location.hostname } : {},
  );

/** The kind of an unexpected HTTP status. */
export function statusKind(status: number): StorefrontFailureKind {
  if (status === 404 || status === 410) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return 'http_error';
}

/** Seconds a Retry-After header asks for (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(
  value: string | string[] | undefined,
  now = Date.now(),
): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim());
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
