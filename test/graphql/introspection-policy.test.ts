// The schema is public (schema/schema.graphql, docs.md, the typed client), so production does not
// pretend otherwise: introspection answers every caller, anonymous included, and a misspelled field
// gets GraphQL's "Did you mean" hint there as in development. Key management is visible but still
// needs the web app's credential (test/access/graphql.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { startAccessServer, type AccessServer } from '../access/access-server.ts';

describe('introspection and field suggestions in production', () => {
  let db: TestDatabase;
  let server: AccessServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, { NODE_ENV: 'production' });
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });
  const graphql = (query: string) =>
    server.app.inject({ method: 'POST', url: '/graphql', payload: { query } });

  it('answers anonymous introspection, key-management mutations included', async () => {
    const response = await graphql('{ __schema { mutationType { fields { name } } } }');
    expect(response.statusCode).toBe(200);
    const names = response
      .json()
      .data.__schema.mutationType.fields.map((f: { name: string }) => f.name);
    expect(names).toContain('requestScrape');
    expect(names.some((name: string) => /key/i.test(name))).toBe(true);
  });

  it('says which field was meant, consistently with the open schema', async () => {
    const response = await graphql('{ __schema { queryTyp { name } } }');
    expect(response.json().errors[0].message).toBe(
      'Cannot query field "queryTyp" on type "__Schema". Did you mean "queryType"?',
    );
  });
});
