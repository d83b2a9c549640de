// App detection reads a page once for the literals its patterns need (literal-prefilter.ts) and
// runs only the patterns whose literal occurs. Checked: the literal found in each kind of pattern
// (never one a match could lack), the one-pass literal search against String.includes on any text,
// and detection with the prefilter against every pattern run on the page, on the farm's homepages
// and on text made of the patterns' own pieces.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../src/seed/reference-data.ts';
import {
  compileFingerprint,
  detectApps,
  unescapedScriptText,
} from '../../src/storefront/app-fingerprints.ts';
import { LiteralSet, requiredLiteral } from '../../src/storefront/literal-prefilter.ts';
import { farmStore } from '../support/storefront-farm/farm-store.ts';
import { homepage } from '../support/storefront-farm/shopify-payloads.ts';

const apps = loadReferenceData().apps.map((app, i) =>
  compileFingerprint({
    id: i + 1,
    slug: app.slug,
    name: app.name,
    category: app.category,
    detection_patterns: app.detectionPatterns,
  }),
);
/** every pattern run on the page and on its unescaped text: what detection did before the prefilter */
const everyPattern = (html: string) => {
  const unescaped = unescapedScriptText(html);
  return apps
    .filter((app) => app.patterns.some((pattern) => pattern.test(html) || pattern.test(unescaped)))
    .map((a) => a.slug);
};
const detected = (html: string) => detectApps(html, apps).map((a) => a.slug);

describe('the literal a pattern cannot match without', () => {
  it.each([
    ['cdn\\.judge\\.me', 'cdn.judge.me'],
    ['cdn\\.shopify\\.com/extensions/[0-9a-f-]+/judgeme', 'cdn.shopify.com/extensions/'],
    ['Loox\\.io/widget', 'loox.io/widget'],
    ['(widget)?\\.privy\\.com', '.privy.com'],
    ['shops?-abc', 'shop'],
    ['ab?cdef', 'cdef'],
    ['abc+def', 'abc'],
    ['\\bswell-', 'swell-'],
    ['rechargecdn\\.com|rc_container', null],
    ['[|]x', null],
    ['ab', null],
    ['a.c\\d{2}xyz', 'xyz'],
    ['(?:bold)-ro', '-ro'],
  ])('%s → %s', (source, literal) => {
    expect(requiredLiteral(source)).toBe(literal);
  });

  it('is in every page a pattern of the app catalog matches', () => {
    for (let index = 0; index < 300; index++) {
      const store = farmStore({ domain: 'farm.test', stores: 1_000, seed: 7 }, index, 0);
      const html = homepage(store, store.products().slice(0, 12));
      const texts = [html, unescapedScriptText(html)].map((t) => t.toLowerCase());
      for (const app of apps) {
        for (const pattern of app.patterns) {
          const literal = requiredLiteral(pattern.source);
          if (literal && texts.some((t) => pattern.test(t)))
            expect(texts.some((t) => t.includes(literal))).toBe(true);
        }
      }
    }
  });
});

describe('finding many literals in one pass', () => {
  it('finds exactly the literals String.includes finds, any case', () => {
    const alphabet = fc.constantFrom('a', 'b', 'A', 'B', '.', '/');
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: alphabet, minLength: 1, maxLength: 5 }), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.string({ unit: alphabet, maxLength: 60 }),
        (literals, text) => {
          const lowered = literals.map((l) => l.toLowerCase());
          const found = new Set<number>();
          new LiteralSet(lowered).collect(text, found);
          const expected = lowered.flatMap((l, i) => (text.toLowerCase().includes(l) ? [i] : []));
          expect([...found].sort((x, y) => x - y)).toEqual(expected);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('detection with the prefilter', () => {
  it("detects what running every pattern detects, on the farm's homepages", () => {
    for (let index = 0; index < 300; index++) {
      const store = farmStore({ domain: 'farm.test', stores: 1_000, seed: 3 }, index, index % 3);
      const html = homepage(store, store.products().slice(0, 12));
      expect(detected(html)).toEqual(everyPattern(html));
    }
  });

  it("detects what running every pattern detects, on text made of the patterns' own pieces", () => {
    const pieces = apps.flatMap((app) =>
      app.patterns.map((p) => p.source.replace(/\\\./g, '.').replace(/[\\^$()[\]{}+*?|]/g, '')),
    );
    const piece = fc.oneof(
      fc.constantFrom(...pieces),
      fc.constantFrom('\\/', '\\u002F', '&amp;', ' ', '-', '.', '"', 'https:'),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const html = parts.join('');
        expect(detected(html)).toEqual(everyPattern(html));
      }),
      { numRuns: 1_000 },
    );
  });
});
