// How a relevance page reads each word's candidates: walking the covering index in the table's
// order until `depth` holders turn up, or reading every holder through the GIN index. A walk is
// expected to read depth × documents ÷ holders entries; reading a holder costs about ten entries
// (measured at 1M stores and 10M products), so a word held by few documents of a large table is
// read whole, and a common word is walked.
import { describe, expect, it } from 'vitest';
import { SqlParams } from '../../src/platform/database/sql.ts';
import { PRODUCT_SEARCH_TABLE as PRODUCTS } from '../../src/products/product-search.sql.ts';
import { STORE_SEARCH_TABLE as STORES } from '../../src/stores/store-text-search.ts';
import {
  relevancePage,
  type SearchTable,
  type TextMatch,
} from '../../src/search/relevance-page.ts';

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

/** The relevance statement of `match` over `table`, for a first page of 20 (depth 21 by default). */
function statementOf(
  table: SearchTable,
  match: TextMatch,
  { filters = [], depth = 21 }: { filters?: string[]; depth?: number } = {},
) {
  const params = new SqlParams();
  const { text } = relevancePage(table, match, {
    params,
    filters,
    exact: [],
    columns: `${table.alias}.id`,
    from: `${table.table} ${table.alias}`,
    depth,
    limit: 20,
    offset: 0,
  });
  return { text, values: params.values };
}

function readOf(match: TextMatch): 'walk' | 'whole' {
  const { text } = statementOf(PRODUCTS, match, { depth: 20 });
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

// A domain typed whole, "galesupply-store.example", at 1M stores: its words galesupply (held by 40
// stores, read whole) and store (held by 120,000), whose exact term alone gives any page its first
// `depth` stores. The 50 terms holding "store" inside (arrowstore, ...) score 0.6 against the exact
// term's 1: a store holding one of them and no galesupply term ranks below every store holding
// "store" itself, and one holding both words is among the documents holding every word. Walking
// them anyway read 8,797 stores by visits to keep 21 (17.8 of the statement's 33.5 ms) and changed
// nothing on the page.
const INFIX_STORE_TERMS = Array.from({ length: 50 }, (_, i) => `brand${i}store`);
const domainTyped = (words: TextMatch['words'] = []): TextMatch => ({
  documents: 1_000_000,
  words: [
    {
      word: 'galesupply',
      weight: 1,
      terms: [{ term: 'galesupply', documents: 40, kind: 'exact', quality: 1 }],
    },
    {
      word: 'store',
      weight: 1,
      terms: [
        { term: 'store', documents: 120_000, kind: 'exact', quality: 1 },
        ...INFIX_STORE_TERMS.map((term) => ({
          term,
          documents: 200,
          kind: 'infix' as const,
          quality: 0.6,
        })),
      ],
    },
    ...words,
  ],
});

/** Whether the page's statement walks the stores for the terms holding "store" inside (its LIKE). */
function walksInfixTerms(match: TextMatch, filters: string[] = []): boolean {
  return statementOf(STORES, match, { filters }).values.includes('%store%');
}

describe('a word whose best terms alone fill the page', () => {
  it('is not walked for its weaker terms when the others can only rank below them', () => {
    expect(walksInfixTerms(domainTyped())).toBe(false);
  });

  it('is still walked for them under another filter, whose stores the counts do not tell', () => {
    expect(walksInfixTerms(domainTyped(), ["s.country_code = 'US'"])).toBe(true);
  });

  it('is still walked for them with a third word, whose stores holding two of three no source covers', () => {
    const match = domainTyped([
      {
        word: 'audio',
        weight: 1,
        terms: [{ term: 'audio', documents: 30_000, kind: 'exact', quality: 1 }],
      },
    ]);
    expect(walksInfixTerms(match)).toBe(true);
  });
});

// At 1M stores the planner read the stores' term statistics (10,000 common terms, 46 kB, detoasted
// again for each source) for every term list given as a value: 4.2 to 5 ms of planning against
// 1.9 given as InitPlans, for the same plan, on "galesupply-store.example". With another filter
// the planner's estimate of a word's stores chooses between the filter's index and a walk.
function termLists(table: SearchTable, filters: string[] = []) {
  const { text } = statementOf(table, domainTyped(), { filters });
  const given = [...text.matchAll(/search_terms && (\(SELECT )?\$\d+::text\[\]/g)];
  expect(given.length).toBeGreaterThan(0);
  const unestimated = given.filter((m) => m[1] !== undefined).length;
  if (unestimated === 0) return 'values';
  expect(unestimated, text).toBe(given.length);
  return 'InitPlans';
}

describe('the term lists of a relevance statement reach the planner', () => {
  it('as InitPlans for stores with no other filter, so that it skips the term statistics', () => {
    expect(termLists(STORES)).toBe('InitPlans');
  });

  it('as values under another filter, whose plan the estimates choose', () => {
    expect(termLists(STORES, ["s.country_code = 'US'"])).toBe('values');
  });

  it('as values for products, whose statistics are small and whose estimates plan the page better', () => {
    expect(termLists(PRODUCTS)).toBe('values');
  });
});
