// One cost model for every operation, computed after its variables are applied: the same query
// costs the same whether its page sizes are literals or variables, the cost comes back in
// `extensions.cost`, and a refusal says it is about cost (bad_request, never "Syntax Error").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { buildServer } from '../../app/server.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { loadCatalogFixture } from '../support/catalog-fixture.ts';

let t: CatalogTestServices;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  t = await createTestServices();
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
  app = await buildServer(t.services);
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

async function graphql(query: string, variables?: Record<string, unknown>) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: any; errors?: any[]; extensions?: any };
}

const literal = (n: number, h: number) =>
  `{ stores(first: ${n}) { edges { node { domain history(first: ${h}) { edges { node { day monthlyVisits monthlyRevenueUsd { low high } } } } } } } }`;
const withVariables =
  'query Pages($n: Int, $h: Int) { stores(first: $n) { edges { node { domain history(first: $h) { edges { node { day monthlyVisits monthlyRevenueUsd { low high } } } } } } } }';

describe('query cost', () => {
  it('prices literal and variable page sizes alike, and returns the cost in extensions', async () => {
    // worked by hand from the documented model (each field 1, a field's selection times its `first`):
    // a history node = 1 + day 1 + monthlyVisits 1 + monthlyRevenueUsd (1 + low 1 + high 1) = 6;
    // history edges = 1 + 6 = 7; history(first: 30) = 1 + 30 × 7 = 211;
    // a store node = 1 + domain 1 + 211 = 213; store edges = 214; stores(first: 20) = 1 + 20 × 214 = 4281
    const fromLiterals = await graphql(literal(20, 30));
    const fromVariables = await graphql(withVariables, { n: 20, h: 30 });
    expect(fromLiterals.errors).toBeUndefined();
    expect(fromVariables.errors).toBeUndefined();
    expect(fromLiterals.extensions?.cost).toEqual({ requested: 4281, limit: 20_000 });
    expect(fromVariables.extensions?.cost).toEqual({ requested: 4281, limit: 20_000 });
  });

  it('refuses an operation over the limit the same way with literals or variables, naming the cost', async () => {
    // stores(first: 100) × history(first: 180): 1 + 100 × (1 + 1 + 1 + 1 + 180 × 7) = 126,401
    for (const answer of [
      await graphql(literal(100, 180)),
      await graphql(withVariables, { n: 100, h: 180 }),
    ]) {
      expect(answer.data ?? null).toBeNull();
      expect(answer.errors).toHaveLength(1);
      const [error] = answer.errors!;
      expect(error.message).not.toMatch(/syntax/i);
      expect(error.message).toContain('126401');
      expect(error.message).toContain('20000');
      expect(error.extensions).toMatchObject({
        code: 'bad_request',
        details: { parameter: 'query', cost: 126_401, limit: 20_000 },
      });
    }
  });

  it('states the model in the schema description and docs.md', async () => {
    const { data } = await graphql('{ __schema { queryType { description } } }');
    expect(data.__schema.queryType.description).toMatch(/cost/i);
    expect(data.__schema.queryType.description).toContain('20,000');
    const docs = readFileSync(new URL('../../docs.md', import.meta.url), 'utf8');
    expect(docs).toMatch(/GraphQL query cost/);
  });
});
