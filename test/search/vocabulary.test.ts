// The vocabulary lookup of a search (src/search/vocabulary.ts): each word's exact term (and each
// typo candidate's count) is read through the vocabulary's primary key (a few buffers), not its trigram index, which PostgreSQL
// also accepts for `=` and prices the same: at 1M stores the trigram index read 40 to 65 buffers
// for one exact term, 1 to 7 ms a word where the primary key takes 0.1 ms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchWords } from '../../src/search/vocabulary.ts';
import { STORE_VOCABULARY } from '../../src/stores/store-text-search.ts';
import { PRODUCT_VOCABULARY } from '../../src/products/product-search.sql.ts';
import { createSeededServices } from '../support/seeded-server.ts';
import type { CatalogTestServices } from '../support/test-services.ts';

describe('vocabulary lookup', () => {
  let test: CatalogTestServices;
  beforeAll(async () => {
    test = await createSeededServices(200, { countStatements: true });
  }, 120_000);
  afterAll(async () => {
    await test?.close();
  });

  for (const vocabulary of [STORE_VOCABULARY, PRODUCT_VOCABULARY]) {
    it(`reads each word's exact term in ${vocabulary.table} through its primary key`, async () => {
      const { pool } = test.services.db;
      const { rows } = await pool.query<{ term: string }>(
        `SELECT term FROM ${vocabulary.table} ORDER BY ${vocabulary.countColumn} DESC LIMIT 2`,
      );
      test.counter!.reset();
      const match = await matchWords(
        pool,
        vocabulary,
        rows.map((row) => row.term),
      );
      expect(match.words.map((w) => w.terms[0]?.kind)).toEqual(['exact', 'exact']);

      // the lookup itself (the first call also reads the vocabulary's terms for its trigram index)
      const { text, values } = test.counter!.sent.find((statement) =>
        statement.text.includes(' AS kind '),
      )!;
      // a small test vocabulary may be read whole; at catalog scale an index is taken, so take one here
      const client = await pool.connect();
      let plan: string;
      try {
        await client.query('SET enable_seqscan = off');
        plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      } finally {
        await client.query('RESET enable_seqscan');
        client.release();
      }
      // the exact branches: an index condition on the one term, read from the primary key
      const scansOf = (condition: RegExp) =>
        plan
          .split('\n')
          .filter((line, i, lines) => /Scan/.test(line) && condition.test(lines[i + 1] ?? ''));
      const exactScans = scansOf(/Index Cond: \(\(?term (=|>=) '/);
      expect(exactScans.length, plan).toBe(2);
      for (const scan of exactScans) expect(scan, plan).toContain(`${vocabulary.table}_pkey`);
      // the typo candidates of the trigram index in memory: their counts read the same way, term by term
      const candidateScans = scansOf(/Index Cond: \(\(term >= c\.term\)/);
      expect(candidateScans.length, plan).toBeGreaterThan(0);
      for (const scan of candidateScans) expect(scan, plan).toContain(`${vocabulary.table}_pkey`);
    });
  }
});
