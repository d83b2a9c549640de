// Host names that mean this machine by definition (localhost, *.localhost per RFC 6761, the
// loopback names hosts files carry) are refused by the egress client before any DNS lookup: the
// refusal names the host as a loopback name rather than the address a resolver returned.
import { describe, expect, it } from 'vitest';
import { isLoopbackName } from '../../../src/platform/egress/address-policy.ts';
import { createEgress } from '../../../src/platform/egress/egress.ts';
import { parseEgressOverrides } from '../../../src/platform/egress/overrides.ts';

const LOOPBACK = [
  'localhost',
  'LOCALHOST.',
  'localhost..',
  'LocalHost',
  'api.localhost',
  'a.b.LOCALHOST.',
  'localhost.localdomain',
  'ip6-localhost',
  'ip6-loopback',
];
const NOT_LOOPBACK = [
  'localhost.example.com',
  'mylocalhost',
  'localhosts',
  'shop.example',
  'example.com.',
];

describe('loopback host names', () => {
  it.each(LOOPBACK)('%s is loopback by definition', (name) =>
    expect(isLoopbackName(name)).toBe(true),
  );
  it.each(NOT_LOOPBACK)('%s is not', (name) => expect(isLoopbackName(name)).toBe(false));

  it.each(['https://LOCALHOST./hook', 'http://shop.localhost:8080/', 'https://localhost/'])(
    'the egress client refuses %s as a loopback name',
    async (url) => {
      const egress = createEgress({
        overrides: parseEgressOverrides(''),
        hostIntervalMs: 0,
        timeoutMs: 2_000,
        maxBytes: 1024,
        userAgent: 'test',
      });
      await expect(egress.fetch(url)).rejects.toMatchObject({
        failure: 'refused_address',
        message: expect.stringContaining('is a loopback name'),
      });
    },
  );
});
