// The key a client address is counted under by the per-address limits (requests without a valid
// credential, open-dev mode): an IPv4 address as itself (also when it arrives IPv4-mapped), an
// IPv6 address by its /64, the smallest block a subscriber is usually given, so one host cannot
// hop between 2^64 addresses of its own to escape its limit. Which address is the client's (the
// TCP peer, or what a trusted proxy forwarded) is Fastify's trustProxy, set from TRUST_PROXY; a
// request Fastify never sees (a WebSocket upgrade) reads it the same way (clientAddressOf).
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import ipaddr from 'ipaddr.js';

export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const prefix = new ipaddr.IPv6([...v6.parts.slice(0, 4), 0, 0, 0, 0]);
  return `${prefix.toString()}/64`;
}

/**
 * TRUST_PROXY as Fastify's trustProxy: addresses and CIDRs as they are; a hop count as "the first
 * N hops are proxies" (as Express reads a number), which is right only when every request arrives
 * through those proxies: a server clients can reach directly should name its proxies instead.
 */
export function trustedProxies(
  setting: number | string[] | undefined,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (setting === undefined || setting === 0) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}

/**
 * The client address of a raw request as Fastify's request.ip reads it under the same TRUST_PROXY
 * (the same library, the same trust): the nearest address no trusted proxy vouches for.
 */
export function clientAddressOf(
  setting: number | string[] | undefined,
): (request: IncomingMessage) => string {
  const trust = trustedProxies(setting);
  if (trust === false) return (request) => request.socket.remoteAddress ?? 'unknown';
  const trusts = typeof trust === 'function' ? trust : proxyAddr.compile(trust);
  return (request) => {
    const addresses = proxyAddr.all(request, trusts);
    return addresses[addresses.length - 1] ?? request.socket.remoteAddress ?? 'unknown';
  };
}
