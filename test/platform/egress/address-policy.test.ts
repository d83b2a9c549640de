// The egress address policy on every IPv6 transition form: each is judged by the IPv4 address its
// packets really reach, so a loopback, private or metadata address cannot hide inside one.
import { describe, expect, it } from 'vitest';
import { checkAddress } from '../../../src/platform/egress/address-policy.ts';

/** IPv4 -> the 32 bits as two IPv6 groups */
const groups = (ipv4: string) => {
  const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number];
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
};
const inverted = (ipv4: string) =>
  groups(ipv4).map((g) => (~parseInt(g, 16) & 0xffff).toString(16));

const FORMS: Record<string, (ipv4: string) => string> = {
  'IPv4-compatible ::/96': (v4) => `::${groups(v4).join(':')}`,
  'IPv4-mapped ::ffff:0:0/96': (v4) => `::ffff:${groups(v4).join(':')}`,
  'IPv4-translated ::ffff:0:0:0/96': (v4) => `::ffff:0:${groups(v4).join(':')}`,
  'NAT64 64:ff9b::/96': (v4) => `64:ff9b::${groups(v4).join(':')}`,
  '6to4 2002::/16': (v4) => `2002:${groups(v4).join(':')}::1`,
  'Teredo client 2001::/32': (v4) => `2001:0:4136:e378:8000:63bf:${inverted(v4).join(':')}`,
  'Teredo server 2001::/32': (v4) =>
    `2001:0:${groups(v4).join(':')}:8000:63bf:${inverted('8.8.4.4').join(':')}`,
};

const REFUSED_IPV4 = {
  loopback: '127.0.0.1',
  private: '10.1.2.3',
  'cloud metadata': '169.254.169.254',
  'carrier-grade NAT metadata': '100.100.100.200',
  unspecified: '0.0.0.0',
};

describe('egress address policy', () => {
  for (const [form, write] of Object.entries(FORMS)) {
    for (const [what, ipv4] of Object.entries(REFUSED_IPV4)) {
      it(`refuses ${form} carrying a ${what} address (${write(ipv4)})`, () => {
        expect(checkAddress(write(ipv4))).toMatchObject({ allowed: false });
      });
    }
    it(`allows ${form} carrying a public address`, () => {
      expect(checkAddress(write('8.8.8.8'))).toEqual({ allowed: true });
    });
  }

  it('writes the forms as the ranges they are (the table above is not a typo)', () => {
    expect(FORMS['IPv4-compatible ::/96']!('127.0.0.1')).toBe('::7f00:1');
    expect(FORMS['Teredo client 2001::/32']!('10.1.2.3')).toBe(
      '2001:0:4136:e378:8000:63bf:f5fe:fdfc',
    );
  });

  it('keeps refusing plain loopback, private, link-local and metadata addresses, and allows public ones', () => {
    for (const address of [
      '127.0.0.1',
      '::1',
      '::',
      '10.0.0.1',
      '192.168.1.1',
      'fd00::1',
      'fe80::1',
      '169.254.169.254',
      '100.100.100.200',
    ]) {
      expect(checkAddress(address), address).toMatchObject({ allowed: false });
    }
    for (const address of ['8.8.8.8', '2606:4700::1111'])
      expect(checkAddress(address), address).toEqual({ allowed: true });
  });
});
