// Search as people type, on a labelled catalog: the store holding every word typed ranks above stores
// holding some, and a last word of one or two letters is taken as a prefix when the other words
// narrow the match. The names and visits below are chosen so that the store holding every word is
// the least visited, its words are each held by hundreds of stores (more than a narrow search reads),
// and more than two hundred more common words begin with the same two letters as its last word.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveStoreFilter } from '../../src/stores/store-filter.ts';
import { textSearchPage } from '../../src/stores/store-search.sql.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';

/** a catalog of its own per describe: the stores given, then ANALYZE */
function catalog(insert: string): { search: (q: string, limit?: number) => Promise<string[]> } {
  let t: CatalogTestServices;
  beforeAll(async () => {
    t = await createTestServices({ queryTimeoutMs: 120_000 });
    await t.services.db.pool.query(insert);
    await t.services.db.pool.query('ANALYZE stores');
  });
  afterAll(() => t?.close());
  return {
    async search(q, limit = 3) {
      const filter = (await resolveStoreFilter(t.services.db.pool, { q }))!;
      const page = await textSearchPage(
        t.services.db.pool,
        { ...filter, textMatch: filter.textMatch! },
        'relevance',
        { offset: 0, limit },
      );
      return page.rows.map((store) => store.name);
    },
  };
}

describe('a store holding every word typed', () => {
  // each word held by hundreds of stores, all more visited than the one store holding both
  const { search } = catalog(
    `INSERT INTO stores (domain, name, monthly_visits, revenue_high_usd)
     VALUES ('sageland-wholesale.shop', 'Sageland Wholesale', 10, 1), ('jadehaven-audio.shop', 'Jadehaven Audio', 5, 1)
     UNION ALL
     SELECT 'sageland-outlet' || i || '.shop', 'Sageland Outlet', 1000 + i, 1 FROM generate_series(1, 600) i
     UNION ALL
     SELECT 'wholesale-depot' || i || '.shop', 'Wholesale Depot', 1000 + i, 1 FROM generate_series(1, 600) i
     UNION ALL
     SELECT 'jadehaven-studio' || i || '.shop', 'Jadehaven Studio', 1000 + i, 1 FROM generate_series(1, 600) i
     UNION ALL
     SELECT 'audio-house' || i || '.shop', 'Audio House', 1000 + i, 1 FROM generate_series(1, 600) i`,
  );

  it.each([
    ['wholesale sageland', 'Sageland Wholesale'],
    ['sageland wholesale', 'Sageland Wholesale'],
    ['audio jadehaven', 'Jadehaven Audio'],
    ['jadehaven audio', 'Jadehaven Audio'],
    ['jadehaven au', 'Jadehaven Audio'],
    ['wholesale sagel', 'Sageland Wholesale'],
  ])('ranks first for %j', async (q, expected) => {
    expect((await search(q))[0]).toBe(expected);
  });
});

describe('a last word of one or two letters', () => {
  // sageland is rare; more than two hundred words more common than wholesale begin with "wh" and "w"
  const { search } = catalog(
    `INSERT INTO stores (domain, name, monthly_visits, revenue_high_usd)
     VALUES ('sageland-wholesale.shop', 'Sageland Wholesale', 10, 1),
            ('sageland-chocolate.shop', 'Sageland Chocolate', 50000, 1),
            ('sageland-candles.shop', 'Sageland Candles', 40000, 1)
     UNION ALL
     SELECT 'wh' || w || '-' || i || '.shop', 'Wh' || w || ' Goods', 100 + i, 1
       FROM (SELECT chr(97 + n / 26) || chr(97 + n % 26) || 'ly' AS w FROM generate_series(0, 259) n) words,
            generate_series(1, 3) i`,
  );

  it.each([
    ['Sageland Wh', 'Sageland Wholesale'],
    ['Sageland W', 'Sageland Wholesale'],
    ['sageland who', 'Sageland Wholesale'],
  ])('is the word being typed in %j', async (q, expected) => {
    expect((await search(q))[0]).toBe(expected);
  });

  it('leaves the stores holding the other words after it, by visits', async () => {
    expect(await search('Sageland Wh')).toEqual([
      'Sageland Wholesale',
      'Sageland Chocolate',
      'Sageland Candles',
    ]);
  });
});
