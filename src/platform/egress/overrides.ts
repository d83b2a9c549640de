// EGRESS_OVERRIDES: named hosts sent to fixed local origins, for tests and development. A request
// to an overridden host connects to its origin (address, port and scheme of the origin; Host, SNI
// and certificate name of the named host) and skips the private-address refusal, for exactly those
// hosts and nothing else. Empty by default, and refused outright in production (config.ts).
//
// A wildcard entry `*.farm.test=origin` covers every name under farm.test (a.farm.test,
// b.c.farm.test; not farm.test itself), so a storefront farm serving thousands of hosts needs one
// entry. Its base must have at least two labels: `*.test` or `*.com` would open a whole top-level
// domain. A named host wins over a wildcard, and a longer wildcard over a shorter one.

export interface EgressOverride {
  /** the entry's host as written, lower case, e.g. shop-a.test or *.farm.test */
  host: string;
  protocol: 'http:' | 'https:';
  /** where connections go: an IP address or a host name, and a port */
  address: string;
  port: number;
}

export interface EgressOverrides {
  /** the override that applies to a host (lower case), if any */
  get(host: string): EgressOverride | undefined;
  has(host: string): boolean;
  /** how many entries were configured */
  readonly size: number;
}

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

class OverrideTable implements EgressOverrides {
  /** wildcard entries by their base (farm.test for *.farm.test), longest base first */
  private readonly wildcards: Array<[string, EgressOverride]>;

  constructor(
    private readonly named: ReadonlyMap<string, EgressOverride>,
    wildcards: ReadonlyMap<string, EgressOverride>,
  ) {
    this.wildcards = [...wildcards].sort(([a], [b]) => b.length - a.length);
  }

  get size(): number {
    return this.named.size + this.wildcards.length;
  }

  get(host: string): EgressOverride | undefined {
    return this.named.get(host) ?? this.wildcards.find(([base]) => host.endsWith(`.${base}`))?.[1];
  }

  has(host: string): boolean {
    return this.get(host) !== undefined;
  }
}

/** Parses `host=origin,*.domain=origin,…`; throws naming the first entry that is not one. */
export function parseEgressOverrides(text: string): EgressOverrides {
  const named = new Map<string, EgressOverride>();
  const wildcards = new Map<string, EgressOverride>();
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [rawHost, origin, ...rest] = entry.split('=');
    const host = rawHost?.trim().toLowerCase() ?? '';
    const base = host.startsWith('*.') ? host.slice(2) : null;
    if (!HOST_NAME.test(base ?? host) || origin === undefined || rest.length > 0) {
      throw new Error(
        `"${entry}" is not host=origin or *.domain=origin (e.g. shop-a.test=http://127.0.0.1:9101)`,
      );
    }
    if (base !== null && !base.includes('.')) {
      throw new Error(
        `"${entry}": a wildcard needs a base of at least two labels (*.farm.test, not *.${base})`,
      );
    }
    let url: URL;
    try {
      url = new URL(origin.trim());
    } catch {
      throw new Error(`"${entry}": ${origin} is not a URL`);
    }
    if (
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      url.pathname !== '/' ||
      url.search ||
      url.username
    ) {
      throw new Error(
        `"${entry}": the origin must be http(s)://address:port with nothing after it`,
      );
    }
    const table = base === null ? named : wildcards;
    const key = base ?? host;
    if (table.has(key)) throw new Error(`"${host}" is overridden twice`);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    table.set(key, {
      host,
      protocol: url.protocol,
      address: url.hostname.replace(/^\[|\]$/g, ''),
      port,
    });
  }
  return new OverrideTable(named, wildcards);
}

/**
 * `overrides` plus every name under the reserved top-level domain `tld` (RFC 2606's `example`,
 * which no real host carries) sent to `origin`: how the in-process demo storefronts answer for
 * the synthetic catalog. A configured entry still wins for the names it covers.
 */
export function withReservedDomain(
  overrides: EgressOverrides,
  tld: 'example',
  origin: URL,
): EgressOverrides {
  const entry: EgressOverride = {
    host: `*.${tld}`,
    protocol: origin.protocol === 'https:' ? 'https:' : 'http:',
    address: origin.hostname.replace(/^\[|\]$/g, ''),
    port: Number(origin.port) || (origin.protocol === 'https:' ? 443 : 80),
  };
  const covers = (host: string) => host.endsWith(`.${tld}`);
  return {
    get: (host) => overrides.get(host) ?? (covers(host) ? entry : undefined),
    has: (host) => overrides.has(host) || covers(host),
    get size() {
      return overrides.size + 1;
    },
  };
}
