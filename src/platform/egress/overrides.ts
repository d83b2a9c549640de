// EGRESS_OVERRIDES: named hosts sent to fixed local origins, for tests and development. A request
// to an overridden host connects to its origin (address, port and scheme of the origin; Host, SNI
// and certificate name of the named host) and skips the private-address refusal, for exactly those
// hosts and nothing else. Empty by default.

export interface EgressOverride {
  /** the named host, lower case, e.g. shop-a.test */
  host: string;
  protocol: 'http:' | 'https:';
  /** where connections go: an IP address or a host name, and a port */
  address: string;
  port: number;
}

export type EgressOverrides = ReadonlyMap<string, EgressOverride>;

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Parses `host=origin,host=origin`; throws naming the first entry that is not one. */
export function parseEgressOverrides(text: string): EgressOverrides {
  const overrides = new Map<string, EgressOverride>();
  for (const entry of text.split(',').map((e) => e.trim()).filter(Boolean)) {
    const [rawHost, origin, ...rest] = entry.split('=');
    const host = rawHost?.trim().toLowerCase() ?? '';
    if (!HOST_NAME.test(host) || origin === undefined || rest.length > 0) {
      throw new Error(`"${entry}" is not host=origin (e.g. shop-a.test=http://127.0.0.1:9101)`);
    }
    let url: URL;
    try {
      url = new URL(origin.trim());
    } catch {
      throw new Error(`"${entry}": ${origin} is not a URL`);
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.username) {
      throw new Error(`"${entry}": the origin must be http(s)://address:port with nothing after it`);
    }
    if (overrides.has(host)) throw new Error(`"${host}" is overridden twice`);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    overrides.set(host, { host, protocol: url.protocol, address: url.hostname.replace(/^\[|\]$/g, ''), port });
  }
  return overrides;
}
