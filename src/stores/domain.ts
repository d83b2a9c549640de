// The one place a caller's domain becomes the catalog's canonical domain: lower case, no scheme,
// no www., no port, path, query or trailing dot. "https://www.Example.com/a?b" → "example.com".
// Anything that is not a public DNS name (spaces, no dot, IP addresses, over-long names) is
// rejected with bad_request naming the parameter.
import { z } from 'zod';
import { badRequest, type ApiError } from '../platform/errors.ts';

const MAX_DOMAIN_LENGTH = 253;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export type DomainParse =
  /** host: the name as the caller gave it, the domain or its www. form (where a storefront is asked first) */
  { ok: true; domain: string; host: string } | { ok: false; rule: string };

function hostnameOf(input: string): string | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//.test(input) ? input : `http://${input}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username || url.password) return null;
    return url.hostname;
  } catch {
    return null;
  }
}

/**
 * A name the URL parser hands back unchanged: lower-case ASCII labels, not empty, the last one
 * starting with a letter (so never read as an IPv4 number), and no punycode label (which the parser
 * may validate). Most requests name a store this way; they skip building a URL.
 */
const PLAIN_HOSTNAME = /^(?:[a-z0-9-]+\.)+[a-z][a-z0-9-]*$/;

export function parseDomain(input: string): DomainParse {
  const trimmed = input.trim().toLowerCase();
  if (trimmed === '') return { ok: false, rule: 'must not be empty' };
  if (PLAIN_HOSTNAME.test(trimmed) && !trimmed.includes('xn--')) return checkedDomain(trimmed);
  if (/\s/.test(trimmed)) return { ok: false, rule: 'must not contain spaces' };
  if (trimmed.includes('@'))
    return { ok: false, rule: 'must not contain @ (an email address or credentials)' };
  const hostname = hostnameOf(trimmed);
  if (!hostname) return { ok: false, rule: 'must be a domain or an http(s) URL' };
  if (hostname.startsWith('[')) return { ok: false, rule: 'must be a domain, not an IP address' };
  return checkedDomain(hostname);
}

/**
 * A canonical domain in one test (every request names a store): two or more labels of 1 to 63
 * letters, digits and inner hyphens, the last starting with a letter. What it refuses, checkedDomain
 * looks at label by label to say why.
 */
const CANONICAL = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The canonical domain of a hostname: no trailing dot, no leading www., a public DNS name's shape. */
function checkedDomain(hostname: string): DomainParse {
  if (
    hostname.length <= MAX_DOMAIN_LENGTH &&
    !hostname.startsWith('www.') &&
    CANONICAL.test(hostname)
  )
    return { ok: true, domain: hostname, host: hostname };
  const named = hostname.replace(/\.$/, '');
  const domain = named.replace(/^www\./, '');
  if (domain.length > MAX_DOMAIN_LENGTH)
    return { ok: false, rule: `must be at most ${MAX_DOMAIN_LENGTH} characters` };
  const labels = domain.split('.');
  if (labels.length < 2) return { ok: false, rule: 'must contain a dot, e.g. example.com' };
  if (!labels.every((label) => LABEL.test(label)))
    return { ok: false, rule: 'must be a valid domain name' };
  if (/^\d+$/.test(labels[labels.length - 1]!))
    return { ok: false, rule: 'must be a domain, not an IP address' };
  return { ok: true, domain, host: named === domain ? domain : `www.${domain}` };
}

/** The canonical domain, or bad_request with details { parameter, rule }. */
export function normalizeDomain(input: string, parameter = 'domain'): string {
  const parsed = parseDomain(input);
  if (!parsed.ok) throw invalidDomain(parameter, parsed.rule);
  return parsed.domain;
}

const invalidDomain = (parameter: string, rule: string): ApiError =>
  badRequest(`Invalid ${parameter}: ${rule}`, { parameter, rule });

/** zod schema for domain arguments: validates and hands the resolver the canonical domain. */
export const domainSchema = z.string().transform((value, ctx) => {
  const parsed = parseDomain(value);
  if (parsed.ok) return parsed.domain;
  ctx.addIssue({ code: 'custom', message: parsed.rule });
  return z.NEVER;
});

/**
 * zod schema for a domain argument whose resolver needs the name as given (a scrape reads the
 * storefront at the form the caller typed first): validates like domainSchema, hands over the input.
 */
export const namedDomainSchema = z.string().superRefine((value, ctx) => {
  const parsed = parseDomain(value);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.rule });
});

/**
 * Whether a redirect keeps to the same store: the same canonical domain (http -> https, example.com
 * <-> www.example.com). Anything else means the storefront moved to another host, whose data must
 * never be written under this domain's name.
 */
export function sameStorefront(from: URL, to: URL): boolean {
  const canonical = (url: URL) => parseDomain(url.hostname);
  const a = canonical(from);
  const b = canonical(to);
  return a.ok && b.ok && a.domain === b.domain;
}

/** The reserved top-level domain (RFC 2606) the seed writes its stores under: it never resolves. */
export const SYNTHETIC_TLD = 'example';

/**
 * Whether a canonical domain is a synthetic store's: the seed writes its stores under the reserved
 * top-level domain .example (RFC 2606), which belongs to no real store. Such a store is never
 * contacted, scheduled or taken in by discovery.
 */
export const isSyntheticDomain = (domain: string): boolean =>
  domain === SYNTHETIC_TLD || domain.endsWith(`.${SYNTHETIC_TLD}`);
