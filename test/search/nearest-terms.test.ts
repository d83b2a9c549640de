// Typo candidates from the vocabulary's trigram index in memory (src/search/nearest-terms.ts): the
// same similarity as pg_trgm's, the same nearest terms as PostgreSQL's `ORDER BY term <-> word`
// (the lookup it replaces), and terms read again once they are a minute old.
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  termIndex,
  TERMS_REFRESH_MS,
  TrigramIndex,
  trigramSimilarity,
} from '../../src/search/nearest-terms.ts';
import { suiteDatabase } from '../support/database.ts';
import { random } from '../support/search-queries.ts';

const suite = suiteDatabase();

afterEach(() => {
  vi.useRealTimers();
});

const word = fc.stringMatching(/^[a-z0-9]{1,14}$/);

/** words that share pieces, as a vocabulary's do: syllables of a few letters put together */
function vocabulary(size: number, seed: number): string[] {
  const next = random(seed);
  const syllables = [
    'bir',
    'ch',
    'gar',
    'den',
    'daw',
    'n',
    'field',
    'row',
    'an',
    'pet',
    'al',
    'glen',
    'lab',
    'shop',
    'ston',
    'e',
    'ski',
    'blue',
    'wave',
    'crest',
  ];
  const words = new Set<string>();
  while (words.size < size) {
    const parts = 1 + Math.floor(next() * 3);
    words.add(
      Array.from({ length: parts }, () => syllables[Math.floor(next() * syllables.length)]).join(
        '',
      ),
    );
  }
  return [...words];
}

describe('trigram similarity', () => {
  it("is pg_trgm's similarity() for words of letters and digits", async () => {
    await fc.assert(
      fc.asyncProperty(word, word, async (a, b) => {
        const { rows } = await suite.pool.query<{ s: number }>(
          'SELECT similarity($1, $2)::float8 AS s',
          [a, b],
        );
        expect(trigramSimilarity(a, b)).toBeCloseTo(rows[0]!.s, 6);
      }),
      { numRuns: 300 },
    );
  });
});

describe('nearest terms', () => {
  const terms = vocabulary(2_000, 11);
  beforeAll(async () => {
    await suite.pool.query('CREATE TABLE nearest_probe (term text COLLATE "C" PRIMARY KEY)');
    await suite.pool.query('INSERT INTO nearest_probe SELECT unnest($1::text[])', [terms]);
    await suite.pool.query('CREATE INDEX ON nearest_probe USING gist (term gist_trgm_ops)');
    await suite.pool.query('ANALYZE nearest_probe');
  });

  it("are the terms PostgreSQL's trigram index orders first, at the same distances", async () => {
    const index = await TrigramIndex.of(terms);
    const next = random(5);
    const words = [
      ...terms.slice(0, 20),
      'birchgraden',
      'glnlab',
      'wavecrst',
      'dawnfeild',
      'zzzq',
      'ski',
      'shpo',
    ].concat(Array.from({ length: 20 }, () => terms[Math.floor(next() * terms.length)]!.slice(1)));
    const client = await suite.pool.connect();
    try {
      // the index, as at catalog scale (a small table would be scanned whole)
      await client.query('SET enable_seqscan = off');
      for (const w of words) {
        const { rows } = await client.query<{ term: string; distance: number }>(
          'SELECT term, (term <-> $1)::float8 AS distance FROM nearest_probe ORDER BY term <-> $1 LIMIT 20',
          [w],
        );
        // terms sharing no trigram are left out of ours (distance 1): never within a typo of the word
        const theirs = rows.filter((row) => row.distance < 1);
        const ours = index.nearest(w, 20);
        const distances = (list: string[]) =>
          list.map((term) => Number((1 - trigramSimilarity(w, term)).toFixed(5)));
        expect(distances(ours).slice(0, theirs.length), w).toEqual(
          theirs.map((row) => Number(row.distance.toFixed(5))),
        );
        // equally distant terms may come in another order; those strictly nearer than the last are the same
        const last = theirs.at(-1)?.distance ?? 1;
        const nearer = (list: string[]) =>
          list.filter((term) => 1 - trigramSimilarity(w, term) < last - 1e-6).sort();
        expect(nearer(ours), w).toEqual(nearer(theirs.map((row) => row.term)));
      }
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });
});

describe('the terms of a database', () => {
  beforeAll(async () => {
    await suite.pool.query(
      'CREATE TABLE refresh_probe (term text COLLATE "C" PRIMARY KEY, documents int NOT NULL)',
    );
    await suite.pool.query(
      "INSERT INTO refresh_probe VALUES ('birchgarden', 3), ('dawnfield', 1), ('gone', 0)",
    );
  });

  it('are read on first use, held a minute, then read again in the background', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const first = await termIndex(suite.pool, 'refresh_probe', 'documents');
    // a term no document holds any more is no candidate
    expect([...first.terms].sort()).toEqual(['birchgarden', 'dawnfield']);
    expect(first.nearest('bicrhgarden', 5)).toEqual(['birchgarden']);

    await suite.pool.query("INSERT INTO refresh_probe VALUES ('birchglow', 2)");
    expect(await termIndex(suite.pool, 'refresh_probe', 'documents')).toBe(first);

    vi.setSystemTime(Date.now() + TERMS_REFRESH_MS);
    // the index of the moment answers while the terms are read again
    expect(await termIndex(suite.pool, 'refresh_probe', 'documents')).toBe(first);
    await vi.waitFor(async () =>
      expect((await termIndex(suite.pool, 'refresh_probe', 'documents')).terms).toContain(
        'birchglow',
      ),
    );
  });
});

describe('a vocabulary of a real catalog', () => {
  // far more words than the synthetic catalog's 16,000: shop names and product titles in many languages
  const SIZE = 500_000;
  const words = vocabulary(4_000, 23);
  const terms = Array.from(
    { length: SIZE },
    (_, i) => `${words[i % words.length]}${i.toString(36)}`,
  );
  beforeAll(async () => {
    await suite.pool.query(
      'CREATE TABLE large_probe (term text COLLATE "C" PRIMARY KEY, documents int NOT NULL)',
    );
    await suite.pool.query('INSERT INTO large_probe SELECT unnest($1::text[]), 1', [terms]);
  });

  it('is indexed a slice at a time: the process answers other requests meanwhile', async () => {
    // the longest the event loop was held, from a timer that asks for a turn every millisecond
    let last = performance.now();
    let longest = 0;
    const turn = () => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    };
    const ticker = setInterval(turn, 1);
    const started = performance.now();
    let took = 0;
    try {
      const index = await termIndex(suite.pool, 'large_probe', 'documents');
      turn(); // the time since the timer's last turn counts too
      took = performance.now() - started;
      expect(index.terms).toHaveLength(SIZE);
      expect(index.nearest(`${words[7]}7x`, 1)).toEqual([`${words[7]}7`]);
    } finally {
      clearInterval(ticker);
    }
    // built in one turn, half a million terms hold the event loop for most of the time they take
    // to read and index (over a second); a slice a turn, for a small part of it. A share rather
    // than milliseconds: a slower machine, or a garbage collection under a loaded test run, makes
    // every hold longer, and the build with it
    expect(longest).toBeLessThan(took / 4);
  });
});
