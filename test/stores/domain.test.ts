// normalizeDomain: every way a caller writes a store's domain becomes the one canonical domain;
// anything that is not a public DNS name is refused with bad_request naming the parameter.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/platform/errors.ts';
import { normalizeDomain, parseDomain } from '../../src/stores/domain.ts';

describe('normalizeDomain', () => {
  it.each([
    ['example.com', 'example.com'],
    ['https://www.example.com/path?x', 'example.com'],
    ['WWW.Example.COM', 'example.com'],
    ['http://example.com:443', 'example.com'],
    ['  shop.example.co.uk  ', 'shop.example.co.uk'],
    ['example.com/collections/all', 'example.com'],
    ['https://example.com#top', 'example.com'],
    ['example.com.', 'example.com'],
    ['HTTPS://WWW.MY-SHOP.IO/', 'my-shop.io'],
    ['www2.example.com', 'www2.example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['https://www.example.com:8443/a/b?c=d&e=f', 'example.com'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeDomain(input)).toBe(expected);
  });

  it('reads a name written without a scheme exactly as the same name after http://', () => {
    // plain lower-case names skip the URL parser; whatever the path, the verdict must be the URL's
    const nameLike = fc.stringMatching(/^[a-z0-9.\-xnw]{1,40}$/);
    fc.assert(
      fc.property(nameLike, (name) => {
        expect(parseDomain(name)).toEqual(parseDomain(`http://${name}`));
      }),
      { numRuns: 5_000 },
    );
    for (const name of [
      'xn--bcher-kva.de',
      'xn--abc.com',
      'a.0x1f',
      'www.example',
      'a.b-',
      '1.2.3.4',
      'a..b',
      'shop.www.example.com',
      'ex--ample.com',
    ]) {
      expect(parseDomain(name)).toEqual(parseDomain(`http://${name}`));
    }
  });

  it('accepts a name as it is exactly when every rule of a public DNS name holds', () => {
    // the rules, label by label: a canonical name passes in one regular expression, and that
    // shortcut must accept what these accept and nothing else
    const followsTheRules = (name: string) => {
      const labels = name.split('.');
      return (
        name.length <= 253 &&
        labels.length >= 2 &&
        labels.every(
          (label) =>
            label.length >= 1 &&
            label.length <= 63 &&
            /^[a-z0-9-]+$/.test(label) &&
            !label.startsWith('-') &&
            !label.endsWith('-'),
        ) &&
        // a last label that reads as a number (decimal, or 0x and hex digits) makes an IPv4 address
        !/^(?:\d+|0x[0-9a-f]*)$/.test(labels[labels.length - 1]!)
      );
    };
    const label = fc.stringMatching(/^[a-z0-9-]{0,66}$/);
    const name = fc
      .array(fc.oneof(label, fc.constantFrom('a', '1', '-', 'x1', 'ab-c', '0')), {
        minLength: 1,
        maxLength: 6,
      })
      .map((labels) => labels.join('.'));
    fc.assert(
      fc.property(name, (candidate) => {
        fc.pre(!candidate.startsWith('www.') && !candidate.endsWith('.'));
        fc.pre(!candidate.includes('xn--'));
        const parsed = parseDomain(candidate);
        if (followsTheRules(candidate))
          expect(parsed).toEqual({ ok: true, domain: candidate, host: candidate });
        else expect(parsed.ok).toBe(false);
      }),
      { numRuns: 10_000 },
    );
  });

  it('strips www. only once, at the start', () => {
    expect(normalizeDomain('www.www.example.com')).toBe('www.example.com');
    expect(normalizeDomain('shop.www.example.com')).toBe('shop.www.example.com');
  });

  it.each([
    ['', 'must not be empty'],
    ['   ', 'must not be empty'],
    ['exa mple.com', 'must not contain spaces'],
    ['localhost', 'must contain a dot'],
    ['example', 'must contain a dot'],
    ['192.168.1.1', 'not an IP address'],
    ['http://10.0.0.1/admin', 'not an IP address'],
    ['[::1]', 'not an IP address'],
    ['http://[2001:db8::1]/', 'not an IP address'],
    ['0x7f.1', 'not an IP address'],
    ['ftp://example.com', 'http(s) URL'],
    ['javascript:alert(1)', 'must be a domain or an http(s) URL'],
    ['user@example.com', '@'],
    ['https://user:pass@example.com', '@'],
    ['-bad.example.com', 'valid domain'],
    ['bad-.example.com', 'valid domain'],
    ['under_score.example.com', 'valid domain'],
    [`${'a'.repeat(64)}.com`, 'valid domain'],
    [`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`, 'at most 253'],
  ])('refuses %j (%s)', (input, rule) => {
    const parsed = parseDomain(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.rule).toContain(rule);
  });

  it('throws bad_request with details { parameter, rule }', () => {
    let thrown: unknown;
    try {
      normalizeDomain('not a domain');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).code).toBe('bad_request');
    expect((thrown as ApiError).details).toEqual({
      parameter: 'domain',
      rule: 'must not contain spaces',
    });
  });

  it('names the parameter it was given', () => {
    expect(() => normalizeDomain('nope', 'domains')).toThrowError(
      expect.objectContaining({
        details: { parameter: 'domains', rule: 'must contain a dot, e.g. example.com' },
      }),
    );
  });

  it('accepts a name of exactly 253 characters', () => {
    const name = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(name).toHaveLength(253);
    expect(normalizeDomain(name)).toBe(name);
  });
});
