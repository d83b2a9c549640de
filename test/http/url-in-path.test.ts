// The contract's {domain} accepts "a full URL with scheme": written into the path as is
// (/v1/stores/https://www.example.com/products), its scheme and host become the one segment they
// would be URL-encoded; everything after the host stays the route's own path.
import { describe, expect, it } from 'vitest';
import { encodeUrlsInPath } from '../../src/http/url-in-path.ts';

describe('a full URL written unencoded into a path', () => {
  it.each([
    ['/v1/stores/https://www.example.com', '/v1/stores/https%3A%2F%2Fwww.example.com'],
    ['/v1/stores/https://www.example.com/', '/v1/stores/https%3A%2F%2Fwww.example.com'],
    [
      '/v1/stores/http://example.com/products?limit=5',
      '/v1/stores/http%3A%2F%2Fexample.com/products?limit=5',
    ],
    [
      '/v1/stores/HTTPS://Example.com:443/history',
      '/v1/stores/HTTPS%3A%2F%2FExample.com%3A443/history',
    ],
    [
      '/v1/products/https://example.com/classic-hoodie',
      '/v1/products/https%3A%2F%2Fexample.com/classic-hoodie',
    ],
    ['/v1/signals/https://example.com/probe', '/v1/signals/https%3A%2F%2Fexample.com/probe'],
    // a proxy or client that collapses the double slash
    ['/v1/stores/https:/example.com/apps', '/v1/stores/https%3A%2F%2Fexample.com/apps'],
    [
      '/v1/stores/compare?domains=https://a.com,b.com',
      '/v1/stores/compare?domains=https://a.com,b.com',
    ],
  ])('%s → %s', (url, rewritten) => {
    expect(encodeUrlsInPath(url)).toBe(rewritten);
  });

  it('leaves every other path alone', () => {
    for (const url of [
      '/v1/stores/example.com',
      '/v1/stores/https%3A%2F%2Fexample.com',
      '/',
      '/v1/stores/https:',
      '/v1/stores/https:x.com',
      '/graphql?query={a}',
    ]) {
      expect(encodeUrlsInPath(url)).toBe(url);
    }
  });
});
