// The one way this service reaches the outside world (storefront scrapes, webhook deliveries).
// Every connection goes to an address checked after DNS resolution, by the lookup the socket itself
// uses (so a second resolution cannot swap in another address), and every redirect is checked the
// same way. Requests have a deadline, bodies a size cap, hosts a politeness interval and, given a
// host gate, one request in flight at a time (host-gate.ts). EGRESS_OVERRIDES
// hosts go to their configured origins; TLS trusts Node's roots plus NODE_EXTRA_CA_CERTS, nothing weaker.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { checkAddress, isLoopbackName } from './address-policy.ts';
import { EgressError } from './egress-error.ts';
import type { HostGate } from './host-gate.ts';
import { HostPacer } from './host-pacer.ts';
import type { EgressOverrides } from './overrides.ts';

export interface EgressOptions {
  overrides: EgressOverrides;
  timeoutMs: number;
  maxBytes: number;
  hostIntervalMs: number;
  /** PEM file of extra trusted CAs (Node's NODE_EXTRA_CA_CERTS) */
  extraCaFile?: string;
  userAgent: string;
  /** one request in flight per host (storefronts); absent = no limit (webhook receivers) */
  gate?: HostGate;
  /** development only (webhooks to `npm run webhooks:listen`): loopback addresses are reached too; never set in production */
  loopbackAllowed?: boolean;
}

export interface EgressRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** follow up to this many redirects, each checked like the first request; 0 = a 3xx is the answer */
  maxRedirects?: number;
  /** a redirect this refuses is not followed: the request fails as `moved` (e.g. a storefront sent to another host) */
  followsTo?(from: URL, to: URL): boolean;
  /** least spacing of requests to this host, when longer than the configured one (a robots.txt Crawl-delay) */
  hostIntervalMs?: number;
}

export interface EgressResponse {
  /** the URL that answered, after redirects (the public form, never an override's origin) */
  url: URL;
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Egress {
  fetch(url: string | URL, request?: EgressRequest): Promise<EgressResponse>;
  /** whether requests to `host` go to a named local origin (EGRESS_OVERRIDES, the demo storefronts) */
  overridden?(host: string): boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function createEgress(options: EgressOptions): Egress {
  const pacer = new HostPacer(options.hostIntervalMs);
  const ca = options.extraCaFile
    ? [...rootCertificates, readFileSync(options.extraCaFile, 'utf8')]
    : undefined;

  async function fetchOnce(url: URL, request: EgressRequest): Promise<EgressResponse> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new EgressError(
        'refused_scheme',
        `${url.protocol} URLs are not fetched, only http and https`,
      );
    }
    if (url.username || url.password)
      throw new EgressError('refused_scheme', 'URLs with credentials are not fetched');
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const override = options.overrides.get(host);
    const protocol = override?.protocol ?? url.protocol;
    const connectHost = override?.address ?? host;
    if (!override && isIP(connectHost)) refuseIfPrivate(connectHost, host, options.loopbackAllowed);
    if (!override && !options.loopbackAllowed && isLoopbackName(host))
      throw new EgressError(
        'refused_address',
        `${host} is a loopback name: only public addresses are reached`,
      );

    // the host's turn first, then its spacing: the wait for a turn never eats into the spacing
    const leave = await options.gate?.enter(
      host,
      options.timeoutMs * 3 + (request.hostIntervalMs ?? options.hostIntervalMs),
    );
    try {
      await pacer.wait(host, request.hostIntervalMs);
      return await requestOnce(url, request, { protocol, connectHost, host, override });
    } finally {
      leave?.();
    }
  }

  async function requestOnce(
    url: URL,
    request: EgressRequest,
    target: {
      protocol: string;
      connectHost: string;
      host: string;
      override: ReturnType<EgressOverrides['get']>;
    },
  ): Promise<EgressResponse> {
    const { protocol, connectHost, host, override } = target;
    // the deadline of each hop starts after its politeness wait
    const signal = AbortSignal.timeout(options.timeoutMs);
    const transport = protocol === 'https:' ? https : http;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = transport.request(
        {
          method: request.method ?? 'GET',
          host: connectHost,
          port: override?.port ?? (url.port || undefined),
          path: `${url.pathname}${url.search}`,
          headers: {
            host: url.host,
            'user-agent': options.userAgent,
            'accept-encoding': 'identity',
            ...request.headers,
            ...(request.body !== undefined
              ? { 'content-length': String(Buffer.byteLength(request.body)) }
              : {}),
          },
          // overridden hosts were named by the operator; every other name is checked after resolution
          lookup: override
            ? undefined
            : options.loopbackAllowed
              ? checkedLookupWithLoopback
              : checkedLookup,
          servername: isIP(host) ? undefined : host,
          ca,
          signal,
          agent: false,
        },
        resolve,
      );
      req.on('error', reject);
      req.end(request.body);
    }).catch((error: unknown) => {
      throw asEgressError(error, url, options.timeoutMs);
    });

    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      response.destroy();
      throw tooLarge(url, options.maxBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > options.maxBytes) {
          response.destroy();
          throw tooLarge(url, options.maxBytes);
        }
        chunks.push(chunk);
      }
    } catch (error) {
      throw asEgressError(error, url, options.timeoutMs);
    }
    return {
      url,
      status: response.statusCode ?? 0,
      headers: response.headers,
      body: Buffer.concat(chunks),
    };
  }

  return {
    overridden: (host) => options.overrides.has(host.toLowerCase()),
    async fetch(input, request = {}) {
      let url = new URL(input);
      let current = request;
      for (let redirects = 0; ; redirects++) {
        const response = await fetchOnce(url, current);
        const location = response.headers.location;
        if (!REDIRECTS.has(response.status) || !location || (request.maxRedirects ?? 0) === 0)
          return response;
        if (redirects >= (request.maxRedirects ?? 0)) {
          throw new EgressError(
            'too_many_redirects',
            `${url.host} redirected more than ${request.maxRedirects} times`,
          );
        }
        const next = new URL(location, url);
        if (request.followsTo && !request.followsTo(url, next)) {
          throw new EgressError('moved', `${url.host} redirects to ${next.host}`, next);
        }
        url = next;
        // 303, and 301/302 after a POST, continue as a GET without the body (as browsers do)
        if (
          response.status === 303 ||
          ((response.status === 301 || response.status === 302) && current.method === 'POST')
        ) {
          current = { ...current, method: 'GET', body: undefined };
        }
      }
    },
  };
}

function refuseIfPrivate(address: string, host: string, loopbackAllowed = false): void {
  const verdict = checkAddress(address);
  if (!verdict.allowed && !(loopbackAllowed && verdict.range === 'loopback')) {
    throw new EgressError(
      'refused_address',
      `${host} is at ${address} (${verdict.range}): only public addresses are reached`,
    );
  }
}

/** dns.lookup for sockets that refuses when any address of the name is not public (or, when allowed, loopback). */
const checkedLookupOf =
  (loopbackAllowed: boolean): LookupFunction =>
  (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const list = addresses;
      try {
        // one private answer is enough to refuse: the name points inside
        for (const { address } of list) refuseIfPrivate(address, hostname, loopbackAllowed);
      } catch (refusal) {
        return callback(refusal as NodeJS.ErrnoException, '', 0);
      }
      if ((lookupOptions as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const [first] = list;
      if (!first)
        return callback(
          Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }),
          '',
          0,
        );
      callback(null, first.address, first.family);
    });
  };
const checkedLookup = checkedLookupOf(false);
const checkedLookupWithLoopback = checkedLookupOf(true);

function tooLarge(url: URL, maxBytes: number): EgressError {
  return new EgressError(
    'too_large',
    `${url.host}${url.pathname} answered more than ${maxBytes} bytes`,
  );
}

function asEgressError(error: unknown, url: URL, timeoutMs: number): EgressError {
  if (error instanceof EgressError) return error;
  const cause = error as NodeJS.ErrnoException & { cause?: unknown };
  if (cause.cause instanceof EgressError) return cause.cause;
  if (cause.name === 'AbortError' || cause.name === 'TimeoutError' || cause.code === 'ABORT_ERR') {
    return new EgressError('timeout', `${url.host} did not answer within ${timeoutMs} ms`);
  }
  if (cause.code === 'ENOTFOUND' || cause.code === 'EAI_AGAIN' || cause.code === 'ENODATA') {
    return new EgressError('unresolvable', `${url.hostname} does not resolve`);
  }
  if (/CERT|SIGNATURE|SELF_SIGNED|ERR_TLS/.test(cause.code ?? '')) {
    return new EgressError(
      'connection',
      `${url.host}: its TLS certificate is not trusted (${cause.code})`,
    );
  }
  return new EgressError('connection', `${url.host}: ${cause.code ?? cause.message}`);
}
