// Every root Query and Mutation field that takes arguments (whatever the schema holds when this
// runs) gets variables generated from its argument types (support/graphql-arbitraries.ts), over
// HTTP at /graphql with an API key. Each answer is data, or errors that all carry a contract code
// in extensions.code other than `internal`; never a 5xx; a refused mutation writes nothing.
import fc from 'fast-check';
import { getNamedType, isLeafType, type GraphQLField } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../../src/gateway/schema.ts';
import { ERROR_CODES } from '../../../src/platform/errors.ts';
import { variablesFor } from './support/graphql-arbitraries.ts';
import { startFuzzServer, type FuzzServer } from './support/fuzz-server.ts';

const SEED = 20_260_802;
const RUNS_PER_FIELD = 40;

type RootField = { operation: 'query' | 'mutation'; field: GraphQLField<unknown, unknown> };

const rootFields: RootField[] = [
  ...Object.values(schema.getQueryType()?.getFields() ?? {}).map((field) => ({
    operation: 'query' as const,
    field,
  })),
  ...Object.values(schema.getMutationType()?.getFields() ?? {}).map((field) => ({
    operation: 'mutation' as const,
    field,
  })),
].filter(({ field }) => field.args.length > 0);

/** `query ($a: T!) { field(a: $a) { __typename } }` for one root field. */
function documentFor({ operation, field }: RootField): string {
  const definitions = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  return `${operation} Fuzz(${definitions}) { ${field.name}(${passed})${selection} }`;
}

const ALLOWED_CODES = ERROR_CODES.filter((code) => code !== 'internal');

let fuzz: FuzzServer;
const tried = new Map<string, number>();

beforeAll(async () => {
  fuzz = await startFuzzServer();
});
afterAll(async () => {
  const total = [...tried.values()].reduce((sum, n) => sum + n, 0);
  console.log(
    `bad-input GraphQL: ${total} generated variable sets over ${tried.size} root fields (seed ${SEED}, ${RUNS_PER_FIELD} per field)`,
  );
  await fuzz?.close();
});

describe('every GraphQL root field under hostile arguments', () => {
  it('covers a schema with fields that take arguments', () => {
    expect(rootFields.length).toBeGreaterThan(0);
  });

  it.each(rootFields.map((root) => [`${root.operation} ${root.field.name}`, root] as const))(
    '%s: data, or errors with a contract code (never internal), never a 5xx',
    async (name, root) => {
      const query = documentFor(root);
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(variablesFor(root.field.args), async (variables) => {
          runs++;
          const before = root.operation === 'mutation' ? await fuzz.rowCounts() : undefined;
          const response = await fuzz.server.app.inject({
            method: 'POST',
            url: '/graphql',
            headers: fuzz.headers,
            payload: { query, variables },
          });
          const label = `${name} ${JSON.stringify(variables).slice(0, 300)} -> ${response.statusCode} ${response.body.slice(0, 400)}`;
          expect(response.statusCode, label).toBeLessThan(500);
          const body = JSON.parse(response.body);
          expect('data' in body || 'errors' in body, label).toBe(true);
          for (const error of body.errors ?? []) {
            expect(ALLOWED_CODES, label).toContain(error.extensions?.code);
            expect(JSON.stringify(error), label).not.toMatch(/\bat .+\.(ts|js):\d+/);
          }
          const refused = (body.errors?.length ?? 0) > 0 && body.data?.[root.field.name] == null;
          if (before && refused)
            expect(await fuzz.rowCounts(), `${label}: a refused mutation wrote nothing`).toEqual(
              before,
            );
        }),
        { seed: SEED, numRuns: RUNS_PER_FIELD, endOnFailure: true },
      );
      tried.set(name, runs);
    },
  );
});
