// The callback URLs the service posts webhooks to (scrapes, alerts): where a caller may point them.
import { badRequest } from '../errors.ts';
import type { Services } from '../services.ts';
import { checkAddress, isLoopbackName } from './address-policy.ts';

/** Validates a callbackUrl: HTTPS, no credentials, not an IP literal of a private range nor a loopback name; webhooks configured. */
export function checkCallbackUrl(
  services: Services,
  value: string,
  parameter = 'callbackUrl',
  /** what to do without webhooks, told when the server has none configured */
  instead = 'poll GET /v1/scrapes/{id} instead',
): string {
  const invalid = (rule: string) =>
    badRequest(`Invalid ${parameter}: ${rule}`, { parameter, rule });
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('must be an absolute https URL');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const verdict = checkAddress(host);
  // in development, the local listener (npm run webhooks:listen) on loopback, plain http allowed; never in production
  const localListener =
    services.config.NODE_ENV === 'development' &&
    (host === 'localhost' || (!verdict.allowed && verdict.range === 'loopback'));
  if (url.protocol !== 'https:' && !(localListener && url.protocol === 'http:'))
    throw invalid('must be an https URL (HTTPS only)');
  if (url.username || url.password) throw invalid('must not carry credentials');
  const overridden = services.config.EGRESS_OVERRIDES.has(host.toLowerCase());
  if (!overridden && !localListener && /^[\d.]+$|:/.test(host) && !verdict.allowed)
    throw invalid('must not point at a private, loopback or link-local address');
  // a name that means this machine by definition is refused here, before any DNS lookup
  if (!overridden && !localListener && isLoopbackName(host))
    throw invalid('must not name this machine (localhost, *.localhost)');
  if (!services.config.WEBHOOK_SIGNING_SECRET) {
    throw invalid(
      `webhooks are not configured on this server (WEBHOOK_SIGNING_SECRET); ${instead}`,
    );
  }
  return url.toString();
}
