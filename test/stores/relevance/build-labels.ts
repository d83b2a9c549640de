// Builds a labelled query file of the relevance suite from a seeded catalog:
//   npx tsx test/stores/relevance/build-labels.ts --database-url URL --stores N [--seed S] --out FILE
// Queries come from stores spread over the catalog (test/support/search-queries.ts); each gets
// the stores that answer it, read from the catalog itself, and the rule for its kind.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { searchQueries, type SearchQuery } from '../../support/search-queries.ts';
import type { LabelFile, LabelledQuery } from './labels.ts';

/** queries of each kind */
const PER_KIND = 30;
/** stores sampled for the queries, spread evenly over the ids */
const SAMPLED_STORES = 600;

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    stores: { type: 'string' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string' },
  },
});
if (!values['database-url'] || !values.stores || !values.out)
  throw new Error('usage: --database-url URL --stores N [--seed S] --out FILE');

const client = new pg.Client({ connectionString: values['database-url'] });
await client.connect();
try {
  const { rows: stores } = await client.query<{ domain: string; name: string }>(
    `SELECT domain, name FROM stores WHERE id % greatest(1, (SELECT max(id) FROM stores) / $1) = 0 ORDER BY id`,
    [SAMPLED_STORES],
  );
  const domainsOf = async (sql: string, value: string) =>
    (await client.query<{ domain: string }>(sql, [value])).rows.map((r) => r.domain);
  const brandStores = (brand: string) =>
    domainsOf(
      `SELECT domain FROM stores WHERE lower(split_part(name, ' ', 1)) = $1 ORDER BY domain`,
      brand,
    );
  const label = async (query: SearchQuery): Promise<LabelledQuery> => {
    const { q, kind } = query;
    switch (kind) {
      case 'brand':
        return {
          q,
          kind,
          relevant: await brandStores(query.brand!),
          rule: { kind: 'all-first', within: 5 },
        };
      case 'typo':
      case 'prefix':
        return {
          q,
          kind,
          relevant: await brandStores(query.brand!),
          rule: { kind: 'any-within', within: 10 },
        };
      case 'name':
        return {
          q,
          kind,
          relevant: await domainsOf(`SELECT domain FROM stores WHERE name = $1 ORDER BY domain`, q),
          rule: { kind: 'any-within', within: 3 },
        };
      case 'domain':
        return { q, kind, relevant: [query.domain!], rule: { kind: 'all-first', within: 1 } };
      case 'stem':
        return { q, kind, relevant: [query.domain!], rule: { kind: 'any-within', within: 5 } };
      case 'common':
      case 'three-letter':
        return { q, kind, relevant: [], rule: { kind: 'terms-start-with', prefix: q, within: 10 } };
      case 'nonsense':
        return { q, kind, relevant: [], rule: { kind: 'empty' } };
    }
  };
  const queries: LabelledQuery[] = [];
  for (const query of searchQueries(stores, PER_KIND)) queries.push(await label(query));
  queries.push({
    q: 'acme',
    kind: 'trap',
    relevant: [],
    rule: { kind: 'none-named', text: 'home' },
  });
  const file: LabelFile = {
    catalog: { stores: Number(values.stores), seed: Number(values.seed) },
    queries,
  };
  writeFileSync(values.out, `${JSON.stringify(file, null, 1)}\n`);
  process.stdout.write(`${queries.length} labelled queries written to ${values.out}\n`);
} finally {
  await client.end();
}
