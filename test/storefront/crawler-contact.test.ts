// The crawler's User-Agent names where a storefront owner reaches us. In production that contact
// must be reachable: a local one (localhost, the default without PUBLIC_BASE_URL, or a loopback
// address) refuses to start the crawler; a public PUBLIC_BASE_URL or CRAWLER_CONTACT_URL is used.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/platform/config.ts';
import { storefrontUserAgent } from '../../src/platform/egress/egress-from-config.ts';

const production = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'production', ...env });

describe('the crawler contact in production', () => {
  it('refuses the localhost default when neither PUBLIC_BASE_URL nor CRAWLER_CONTACT_URL is set', () => {
    expect(() => storefrontUserAgent(production({}))).toThrow(ConfigError);
    expect(() => storefrontUserAgent(production({}))).toThrow(
      /CRAWLER_CONTACT_URL \(or PUBLIC_BASE_URL\)/,
    );
  });

  it('refuses a local PUBLIC_BASE_URL or contact (localhost, loopback addresses)', () => {
    for (const env of <Array<Record<string, string>>>[
      { PUBLIC_BASE_URL: 'http://localhost:8081' },
      { PUBLIC_BASE_URL: 'http://127.0.0.1:3000' },
      { CRAWLER_CONTACT_URL: 'http://[::1]/about' },
      {
        PUBLIC_BASE_URL: 'https://intel.example.com',
        CRAWLER_CONTACT_URL: 'http://api.localhost/crawler',
      },
    ]) {
      expect(() => storefrontUserAgent(production(env)), JSON.stringify(env)).toThrow(ConfigError);
    }
  });

  it('uses a public PUBLIC_BASE_URL, or the crawler contact setting over it', () => {
    expect(
      storefrontUserAgent(production({ PUBLIC_BASE_URL: 'https://intel.example.com' })),
    ).toMatch(
      /^store-intelligence-scraper\/\S+ \(\+https:\/\/intel\.example\.com\/v1\/docs\.md#crawler\)$/,
    );
    expect(
      storefrontUserAgent(
        production({
          PUBLIC_BASE_URL: 'http://localhost:8081',
          CRAWLER_CONTACT_URL: 'https://example.org/bot',
        }),
      ),
    ).toMatch(/\(\+https:\/\/example\.org\/bot\)$/);
  });

  it('keeps the localhost default outside production (development and tests)', () => {
    expect(storefrontUserAgent(loadConfig({ NODE_ENV: 'development', PORT: '4000' }))).toMatch(
      /\(\+http:\/\/localhost:4000\/v1\/docs\.md#crawler\)$/,
    );
  });
});
