// Which addresses outbound requests (scrapes, webhooks) may reach: public unicast only. Loopback,
// private (RFC 1918, unique local), link-local (which holds the cloud metadata address
// 169.254.169.254), carrier-grade NAT (Alibaba's metadata 100.100.100.200), multicast and reserved
// ranges are refused. An IPv6 address of a transition form carries an IPv4 address that is where
// the packets really go (IPv4-compatible ::/96, mapped ::ffff:0:0/96, translated ::ffff:0:0:0/96,
// NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo 2001::/32): it is judged by that IPv4 address.
import ipaddr from 'ipaddr.js';

export type AddressVerdict = { allowed: true } | { allowed: false; range: string };

const ipv4Of = (high: number, low: number) =>
  new ipaddr.IPv4([(high >> 8) & 0xff, high & 0xff, (low >> 8) & 0xff, low & 0xff]);

/** The IPv4 addresses an IPv6 transition address delivers to (both ends for Teredo), or none. */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = address.parts;
  const zeros = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  if (zeros(0, 6)) return p[6] === 0 && p[7]! <= 1 ? [] : [ipv4Of(p[6]!, p[7]!)]; // ::/96 (but :: and ::1)
  if (zeros(0, 5) && p[5] === 0xffff) return [ipv4Of(p[6]!, p[7]!)]; // ::ffff:0:0/96
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return [ipv4Of(p[6]!, p[7]!)]; // ::ffff:0:0:0/96
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return [ipv4Of(p[6]!, p[7]!)]; // 64:ff9b::/96
  if (p[0] === 0x2002) return [ipv4Of(p[1]!, p[2]!)]; // 6to4
  // Teredo: the server's address in the clear, the client's with every bit inverted
  if (p[0] === 0x2001 && p[1] === 0)
    return [ipv4Of(p[2]!, p[3]!), ipv4Of(~p[6]! & 0xffff, ~p[7]! & 0xffff)];
  return [];
}

export function checkAddress(address: string): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, range: 'not an IP address' };
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const carried = embeddedIPv4(parsed as ipaddr.IPv6);
    if (carried.length > 0) {
      const refused = carried.map((ipv4) => ipv4.range()).find((range) => range !== 'unicast');
      return refused
        ? { allowed: false, range: `${(parsed as ipaddr.IPv6).range()} carrying ${refused}` }
        : { allowed: true };
    }
  }
  const range = parsed.range();
  return range === 'unicast' ? { allowed: true } : { allowed: false, range };
}

/**
 * Host names that mean this machine by definition, refused without asking DNS (whose answer an
 * attacker's resolver or a hosts file decides): localhost and every name under .localhost (RFC
 * 6761), with or without the trailing dot, in any case, and the loopback names hosts files carry.
 */
const LOOPBACK_NAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'ip6-localhost',
  'ip6-loopback',
]);

export function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '');
  return LOOPBACK_NAMES.has(name) || name.endsWith('.localhost');
}
