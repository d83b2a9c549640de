// Which addresses outbound requests (scrapes, webhooks) may reach: public unicast only. Loopback,
// private (RFC 1918, unique local), link-local (which holds the cloud metadata address
// 169.254.169.254), carrier-grade NAT (Alibaba's metadata 100.100.100.200), multicast, reserved and
// the IPv6 forms that embed an IPv4 address (mapped, 6to4, Teredo, NAT64) are all refused.
import ipaddr from 'ipaddr.js';

export type AddressVerdict = { allowed: true } | { allowed: false; range: string };

export function checkAddress(address: string): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, range: 'not an IP address' };
  let parsed = ipaddr.parse(address);
  // ::ffff:10.0.0.1 is 10.0.0.1: judge the IPv4 address it carries
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  return range === 'unicast' ? { allowed: true } : { allowed: false, range };
}
