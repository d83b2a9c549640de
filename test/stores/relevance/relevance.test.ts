// The store search's relevance on a labelled query set built from the seeded catalog
// (labels-10k.json, made by build-labels.ts from `npm run seed -- --stores 10000`): brands, typos
// (one or two edits or a swap), prefixes while typing, exact names, full domains, domains without
// their TLD, common words, three letters, nonsense and the acme trap, each judged by the issue's
// rule for its kind. The suite seeds the same catalog with the project's seeder. With
// RELEVANCE_DATABASE_URL and RELEVANCE_LABELS it judges an existing catalog instead (the 1M bench
// catalog with labels-1m.json: see the closing note of issue 14).
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '../../../src/seed/seed-catalog.ts';
import { resolveStoreFilter } from '../../../src/stores/store-filter.ts';
import { textSearchPage } from '../../../src/stores/store-search.sql.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import type { LabelFile, LabelledQuery } from './labels.ts';

const labelsPath =
  process.env.RELEVANCE_LABELS ?? new URL('./labels-10k.json', import.meta.url).pathname;
const labels = JSON.parse(readFileSync(labelsPath, 'utf8')) as LabelFile;
/** results read per query: the widest rule looks at the first 10 */
const DEPTH = 10;

let db: TestDatabase | undefined;
let pool: pg.Pool;

beforeAll(async () => {
  const external = process.env.RELEVANCE_DATABASE_URL;
  if (external) {
    pool = new pg.Pool({ connectionString: external, max: 2 });
    return;
  }
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await seedCatalog({
    pool,
    stores: labels.catalog.stores,
    seed: labels.catalog.seed,
    today: new Date('2026-01-31T00:00:00Z'),
  });
}, 300_000);
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

interface Result {
  domain: string;
  name: string;
  terms: string[];
}

async function search(q: string): Promise<Result[]> {
  const filter = (await resolveStoreFilter(pool, { q }))!;
  const { rows: stores } = await textSearchPage(
    pool,
    { ...filter, textMatch: filter.textMatch! },
    'relevance',
    { offset: 0, limit: DEPTH },
  );
  if (stores.length === 0) return [];
  const { rows } = await pool.query<{ domain: string; terms: string[] }>(
    `SELECT domain, search_terms AS terms FROM stores WHERE domain = ANY($1::text[])`,
    [stores.map((s) => s.domain)],
  );
  const terms = new Map(rows.map((r) => [r.domain, r.terms]));
  return stores.map((s) => ({ domain: s.domain, name: s.name, terms: terms.get(s.domain) ?? [] }));
}

/** Why the results break the query's rule, or null when they keep it. */
function judge(query: LabelledQuery, results: Result[]): string | null {
  const relevant = new Set(query.relevant);
  const { rule } = query;
  const top = (n: number) => results.slice(0, n).map((r) => r.domain);
  switch (rule.kind) {
    case 'any-within':
      return top(rule.within).some((d) => relevant.has(d))
        ? null
        : `none of ${query.relevant.slice(0, 3).join(', ')}… in the first ${rule.within}`;
    case 'all-first': {
      const n = Math.min(rule.within, relevant.size);
      const first = top(n);
      return first.length === n && first.every((d) => relevant.has(d))
        ? null
        : `the first ${n} are not all relevant`;
    }
    case 'terms-start-with': {
      const off = results
        .slice(0, rule.within)
        .filter((r) => !r.terms.some((t) => t.startsWith(rule.prefix)));
      if (results.length === 0) return 'no result';
      return off.length === 0 ? null : `${off[0]!.name} holds no word starting with ${rule.prefix}`;
    }
    case 'empty':
      return results.length === 0
        ? null
        : `${results.length} results, the first ${results[0]!.name}`;
    case 'none-named': {
      const named = results.find((r) => r.name.toLowerCase().includes(rule.text));
      return named ? `answers ${named.name}` : null;
    }
  }
}

describe(`store search relevance (${labels.queries.length} labelled queries, ${labels.catalog.stores.toLocaleString('en-US')}-store catalog)`, () => {
  it('the labels still describe the catalog (rebuild them with build-labels.ts when the seeder changes)', async () => {
    const named = labels.queries.filter((query) => query.kind === 'domain').map((query) => query.q);
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM stores WHERE domain = ANY($1::text[])`,
      [named],
    );
    expect(rows[0]!.n).toBe(named.length);
  });

  it('answers every labelled query by its rule', async () => {
    const failures: string[] = [];
    const byKind = new Map<string, { passed: number; total: number }>();
    for (const query of labels.queries) {
      const problem = judge(query, await search(query.q));
      const tally = byKind.get(query.kind) ?? { passed: 0, total: 0 };
      tally.total++;
      if (problem) failures.push(`${query.kind} "${query.q}": ${problem}`);
      else tally.passed++;
      byKind.set(query.kind, tally);
    }
    const summary = [...byKind]
      .map(([kind, { passed, total }]) => `${kind} ${passed}/${total}`)
      .join(', ');
    process.stdout.write(`relevance: ${summary}\n`);
    expect(failures, summary).toEqual([]);
  }, 300_000);
});
