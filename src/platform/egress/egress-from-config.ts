// Egress clients built from the configuration. Everything that reads stores' public surfaces
// (scrapes, signal probes, the storefront observer, discovery) shares one client per process, so the
// per-host pacing holds across features: a watched store that is also being scraped is not asked
// twice as often. Its host gate keeps one request in flight per host across every process sharing
// the database. Other callers (ad libraries, webhooks) build their own with their own user agent.
import packageJson from '../../../package.json' with { type: 'json' };
import ipaddr from 'ipaddr.js';
import { ConfigError, type Config } from '../config.ts';
import { connectionLossLogger } from '../database/connection-loss.ts';
import type { Services } from '../services.ts';
import { isLoopbackName } from './address-policy.ts';
import { createEgress, type Egress } from './egress.ts';
import { DatabaseHostGate, type HostGate } from './host-gate.ts';

/** Whether a URL's host is this machine (localhost, a loopback or unspecified address): no contact for a storefront owner. */
function isLocal(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isLoopbackName(host)) return true;
  if (!ipaddr.isValid(host)) return false;
  const range = ipaddr.process(host).range();
  return range === 'loopback' || range === 'unspecified';
}

/**
 * The storefront crawler's User-Agent: its product token (the name robots.txt groups match), the
 * version, and in the comment where a storefront owner reads who we are and how to reach us. In
 * production that contact must be one they can reach: a local one (the default without
 * PUBLIC_BASE_URL) refuses to start the crawler.
 */
export function storefrontUserAgent(
  config: Pick<Config, 'CRAWLER_CONTACT_URL' | 'PUBLIC_BASE_URL' | 'PORT' | 'NODE_ENV'>,
): string {
  const base = (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  const contact = config.CRAWLER_CONTACT_URL ?? `${base}/v1/docs.md#crawler`;
  if (config.NODE_ENV === 'production' && isLocal(contact)) {
    throw new ConfigError(
      `the storefront crawler names a contact in its User-Agent, and ${contact} is this machine: ` +
        'set CRAWLER_CONTACT_URL (or PUBLIC_BASE_URL) to a public URL when NODE_ENV is production',
    );
  }
  return `store-intelligence-scraper/${packageJson.version} (+${contact})`;
}

export function egressFromConfig(
  config: Config,
  userAgent: string,
  options: { gate?: HostGate; loopbackAllowed?: boolean } = {},
): Egress {
  return createEgress({
    gate: options.gate,
    // loopback only ever in development (the local webhook listener)
    loopbackAllowed: options.loopbackAllowed === true && config.NODE_ENV === 'development',
    overrides: config.EGRESS_OVERRIDES,
    timeoutMs: config.EGRESS_TIMEOUT_MS,
    maxBytes: config.EGRESS_MAX_BYTES,
    hostIntervalMs: config.EGRESS_HOST_INTERVAL_MS,
    extraCaFile: config.NODE_EXTRA_CA_CERTS,
    userAgent,
  });
}

const storefrontClients = new WeakMap<Services, Egress>();

/** The process's one client for storefronts. */
export function storefrontEgress(services: Services): Egress {
  let egress = storefrontClients.get(services);
  if (!egress) {
    const gate = new DatabaseHostGate(
      services.db.url,
      connectionLossLogger(services.logger, 'host gate session'),
    );
    egress = egressFromConfig(services.config, storefrontUserAgent(services.config), { gate });
    storefrontClients.set(services, egress);
  }
  return egress;
}
