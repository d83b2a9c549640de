// Egress clients built from the configuration. Everything that reads stores' public surfaces
// (scrapes, signal probes, the storefront observer) shares one client per process, so the per-host
// pacing holds across features: a watched store that is also being scraped is not asked twice as
// often. Other callers (ad libraries) build their own with their own user agent.
import packageJson from '../../../package.json' with { type: 'json' };
import type { Config } from '../config.ts';
import type { Services } from '../services.ts';
import { createEgress, type Egress } from './egress.ts';

/**
 * The storefront crawler's User-Agent: its product token (the name robots.txt groups match), the
 * version, and in the comment where a storefront owner reads who we are and how to reach us.
 */
export function storefrontUserAgent(config: Pick<Config, 'CRAWLER_CONTACT_URL' | 'PUBLIC_BASE_URL' | 'PORT'>): string {
  const base = (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  const contact = config.CRAWLER_CONTACT_URL ?? `${base}/v1/docs.md#crawler`;
  return `store-intelligence-scraper/${packageJson.version} (+${contact})`;
}

export function egressFromConfig(config: Config, userAgent: string, options: { loopbackAllowed?: boolean } = {}): Egress {
  return createEgress({
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
    egress = egressFromConfig(services.config, storefrontUserAgent(services.config));
    storefrontClients.set(services, egress);
  }
  return egress;
}
