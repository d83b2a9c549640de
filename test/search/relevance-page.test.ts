// How a relevance page reads each word's candidates: walking the covering index in the table's
// order until `depth` holders turn up, or reading every holder through the GIN index. A walk is
// expected to read depth × documents ÷ holders entries; reading a holder costs about ten entries
// (measured at 1M stores and 10M products), so a word held by few documents of a large table is
// read whole, and a common word is walked.
import { describe, expect, it } from 'vitest';
import { SqlParams } from '../../src/platform/database/sql.ts';
import { PRODUCT_SEARCH_TABLE as PRODUCTS } from '../../src/products/product-search.sql.ts';
import { relevancePage, type TextMatch } from '../../src/search/relevance-page.ts';

/** one word of one exactly matching term held by `holders` of `documents` */
const oneWord = (holders: number, documents = 9_789_443): TextMatch => ({
  documents,
  words: [
    {
      word: 'mala',
      weight: 1,
      terms: [{ term: 'mala', documents: holders, kind: 'exact', quality: 1 }],
    },
  ],
});

function readOf(match: TextMatch): 'walk' | 'whole' {
  const { text } = relevancePage(PRODUCTS, match, {
    params: new SqlParams(),
    filters: [],
    exact: [],
    columns: 'p.id',
    from: 'products p',
    depth: 20,
    limit: 20,
    offset: 0,
  });
  const walks = text.includes('ORDER BY id OFFSET 0) p WHERE');
  const whole = text.includes('ORDER BY p.id + 0 LIMIT');
  expect(walks !== whole, text).toBe(true);
  return walks ? 'walk' : 'whole';
}

describe('a relevance page reads a word', () => {
  it('held by 2,062 of 10M documents through its holders: a walk would read about 95,000 entries', () => {
    expect(readOf(oneWord(2_062))).toBe('whole');
  });

  it('held by 185,000 of 10M documents by walking: about 1,000 entries against 185,000 holders', () => {
    expect(readOf(oneWord(185_000))).toBe('walk');
  });

  it('held by 2,062 of 20,000 documents by walking: about 200 entries', () => {
    expect(readOf(oneWord(2_062, 20_000))).toBe('walk');
  });
});
