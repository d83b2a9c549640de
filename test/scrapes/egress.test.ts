// Egress safety: scrape targets and callback URLs never reach private, loopback, link-local or
// metadata addresses, checked after DNS resolution and on every redirect; EGRESS_OVERRIDES opens
// exactly the hosts it names; bodies are capped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgress, type EgressOptions } from '../../src/platform/egress/egress.ts';
import { parseEgressOverrides } from '../../src/platform/egress/overrides.ts';
import { startFixtureStorefronts, type FixtureStorefronts } from './support/fixture-storefronts.ts';

let fixtures: FixtureStorefronts;
beforeAll(async () => {
  fixtures = await startFixtureStorefronts();
});
afterAll(() => fixtures?.close());

const options = (overrides = ''): EgressOptions => ({
  overrides: parseEgressOverrides(overrides),
  timeoutMs: 2_000,
  maxBytes: 1_000_000,
  hostIntervalMs: 0,
  userAgent: 'test',
});

describe('egress', () => {
  it.each([
    ['loopback', () => `http://127.0.0.1:${fixtures.port}/`],
    ['a private network', () => 'http://10.1.2.3/'],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback', () => `http://[::1]:${fixtures.port}/`],
    ['an IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${fixtures.port}/`],
    ['a name that resolves to loopback', () => `http://localhost:${fixtures.port}/`],
  ])('refuses %s', async (_what, url) => {
    const before = fixtures.requests.length;
    await expect(createEgress(options()).fetch(url())).rejects.toMatchObject({
      failure: 'refused_address',
    });
    expect(fixtures.requests.slice(before)).toEqual([]);
  });

  it('reaches exactly the hosts EGRESS_OVERRIDES names', async () => {
    const egress = createEgress(options(`shop-a.test=http://127.0.0.1:${fixtures.port}`));
    const response = await egress.fetch('https://shop-a.test/meta.json');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body.toString())).toMatchObject({ name: 'Shop A' });
    await expect(egress.fetch(`http://127.0.0.1:${fixtures.port}/meta.json`)).rejects.toMatchObject(
      { failure: 'refused_address' },
    );
    await expect(egress.fetch('https://dropper.test/')).rejects.toMatchObject({
      failure: 'unresolvable',
    });
  });

  it('a wildcard entry reaches every name under its domain and nothing else', async () => {
    const egress = createEgress(options(`*.fixture.test=http://127.0.0.1:${fixtures.port}`));
    const before = fixtures.requests.length;
    expect((await egress.fetch('https://shop-a.fixture.test/')).status).toBe(404); // reached: the fixture server knows no such store
    expect(fixtures.requests.slice(before)).toEqual(['shop-a.fixture.test/']);
    for (const outside of [
      'https://fixture.test/',
      'https://shop-a.test/',
      'https://evilfixture.test/',
    ]) {
      await expect(egress.fetch(outside)).rejects.toMatchObject({ failure: 'unresolvable' });
    }
    await expect(egress.fetch(`http://127.0.0.1:${fixtures.port}/`)).rejects.toMatchObject({
      failure: 'refused_address',
    });
    expect(fixtures.requests.slice(before)).toHaveLength(1);
  });

  it('a named host wins over a wildcard, a longer wildcard over a shorter one', () => {
    const overrides = parseEgressOverrides(
      '*.farm.test=http://127.0.0.1:1,*.eu.farm.test=http://127.0.0.1:2,a.eu.farm.test=http://127.0.0.1:3',
    );
    expect(overrides.get('b.farm.test')?.port).toBe(1);
    expect(overrides.get('b.eu.farm.test')?.port).toBe(2);
    expect(overrides.get('a.eu.farm.test')?.port).toBe(3);
    expect(overrides.has('farm.test')).toBe(false);
  });

  it('checks every redirect: a redirect to a private address is refused', async () => {
    const egress = createEgress(options(`redirect-private.test=http://127.0.0.1:${fixtures.port}`));
    await expect(
      egress.fetch('https://redirect-private.test/', { maxRedirects: 5 }),
    ).rejects.toMatchObject({ failure: 'refused_address' });
  });

  it('caps the size of a response body', async () => {
    const egress = createEgress({
      ...options(`shop-a.test=http://127.0.0.1:${fixtures.port}`),
      maxBytes: 200,
    });
    await expect(egress.fetch('https://shop-a.test/')).rejects.toMatchObject({
      failure: 'too_large',
    });
  });

  it('paces the requests to one host by EGRESS_HOST_INTERVAL_MS (politeness) and holds no other host up', async () => {
    const interval = 2_000;
    const egress = createEgress({
      ...options(
        `shop-a.test=http://127.0.0.1:${fixtures.port},dropper.test=http://127.0.0.1:${fixtures.port}`,
      ),
      hostIntervalMs: interval,
    });
    const started = Date.now();
    const finished: Record<string, number> = {};
    const get = (name: string, url: string) =>
      egress.fetch(url).then((response) => {
        finished[name] = Date.now() - started;
        return response.status;
      });
    const statuses = await Promise.all([
      get('first', 'https://shop-a.test/meta.json'),
      get('second', 'https://shop-a.test/products.json'),
      get('other host', 'https://dropper.test/meta.json'),
    ]);
    expect(statuses).toEqual([200, 200, 200]);
    // the second request to shop-a.test waited the interval; dropper.test did not wait behind it
    expect(finished.second).toBeGreaterThanOrEqual(interval);
    expect(finished['other host']).toBeLessThan(finished.second!);
  });

  it('rejects a malformed EGRESS_OVERRIDES entry', () => {
    expect(() => parseEgressOverrides('shop-a.test')).toThrow(/host=origin/);
    expect(() => parseEgressOverrides('a.test=ftp://127.0.0.1')).toThrow(/origin/);
    expect(() => parseEgressOverrides('*.test=http://127.0.0.1:1')).toThrow(/at least two labels/);
    expect(() => parseEgressOverrides('*=http://127.0.0.1:1')).toThrow(/host=origin/);
    expect(() => parseEgressOverrides('a.*.test=http://127.0.0.1:1')).toThrow(/host=origin/);
  });
});
