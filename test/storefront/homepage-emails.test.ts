// Addresses on a homepage are found from each "@" (homepage.ts emailsIn) instead of scanning the
// page with the address expression: the same matches in the same order as that expression, on
// any text (fast-check, with the characters that matter over-represented) and on the farm's pages.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emailsIn, readHomepage } from '../../src/storefront/homepage.ts';
import { farmStore } from '../support/storefront-farm/farm-store.ts';
import { homepage } from '../support/storefront-farm/shopify-payloads.ts';

const EXPRESSION = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}/g;
const byExpression = (text: string) => [...text.matchAll(EXPRESSION)].map((m) => m[0]);

const pieces = fc.oneof(
  fc.constantFrom(
    '@',
    '.',
    '-',
    '_',
    '+',
    '%',
    ' ',
    '"',
    '<',
    '>',
    ':',
    '/',
    'a',
    'Z',
    '9',
    '.com',
    '.co',
    'x@y.io',
  ),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: fc.constantFrom('a', 'b', '.', '-', '@'), minLength: 60, maxLength: 80 }),
  // local parts around the 64-character limit
  fc.integer({ min: 60, max: 70 }).map((n) => `${'a'.repeat(n)}@shop.com`),
);

describe('addresses on a homepage', () => {
  it('are the matches of the address expression, in order, on any text', () => {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 60 }), (parts) => {
        const text = parts.join('');
        expect(emailsIn(text)).toEqual(byExpression(text));
      }),
      { numRuns: 3_000 },
    );
  });

  it("are the same on the farm's homepages, and read into the facts as before", () => {
    for (let index = 0; index < 40; index++) {
      const store = farmStore({ domain: 'farm.test', stores: 100, seed: 1 }, index, 0);
      const html =
        homepage(store, store.products().slice(0, 12)) +
        ` write to Sales.Team@${store.name.replace(/ /g, '')}.example or logo@2x.png`;
      expect(emailsIn(html)).toEqual(byExpression(html));
      expect(readHomepage(html, []).emails).toEqual([
        store.email,
        `sales.team@${store.name.replace(/ /g, '').toLowerCase()}.example`,
      ]);
    }
  });
});
