// Relay paging as a frontend meets it: an empty page has no cursors, argument errors name the
// GraphQL arguments (first, after) rather than REST's limit/offset, and the arguments say that
// paging is forward-only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetToCursor } from '@pothos/plugin-relay';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';
import { loadCatalogFixture } from '../support/catalog-fixture.ts';
import { failure, query } from './support/execute.ts';

let t: CatalogTestServices;

beforeAll(async () => {
  t = await createTestServices();
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
});
afterAll(async () => {
  await t?.close();
});

describe('paging', () => {
  it('answers an empty page with null cursors', async () => {
    const { stores } = await query(
      t.services,
      `{ stores(first: 5, after: "${offsetToCursor(500)}") { edges { cursor } pageInfo { startCursor endCursor hasNextPage } } }`,
    );
    expect(stores.edges).toEqual([]);
    expect(stores.pageInfo).toEqual({ startCursor: null, endCursor: null, hasNextPage: false });
  });

  it('names first and after in argument errors', async () => {
    const tooLarge = await failure(t.services, '{ stores(first: 500) { totalCount } }');
    expect(tooLarge).toMatchObject({ code: 'bad_request', details: { parameter: 'first' } });
    expect(tooLarge.message).toMatch(/^Invalid first:/);
    const notACursor = await failure(
      t.services,
      '{ stores(after: "not-a-cursor") { totalCount } }',
    );
    expect(notACursor).toMatchObject({ code: 'bad_request', details: { parameter: 'after' } });
  });

  it('refuses a cursor taken from another list, and pages a list with its own', async () => {
    const { apps } = await query(t.services, '{ apps(first: 1) { pageInfo { endCursor } } }');
    const foreign = await failure(
      t.services,
      `{ stores(first: 1, after: "${apps.pageInfo.endCursor}") { totalCount } }`,
    );
    expect(foreign).toMatchObject({
      code: 'bad_request',
      details: { parameter: 'after', rule: 'must be a cursor of Query.stores' },
    });
    const first = await query(
      t.services,
      '{ stores(first: 2) { edges { node { domain } } pageInfo { endCursor } } }',
    );
    const next = await query(
      t.services,
      `{ stores(first: 2, after: "${first.stores.pageInfo.endCursor}") { edges { node { domain } } } }`,
    );
    const domains = (page: { edges: Array<{ node: { domain: string } }> }) =>
      page.edges.map((e) => e.node.domain);
    expect(domains(next.stores)).toHaveLength(2);
    expect(domains(next.stores)).not.toContain(domains(first.stores)[0]);
  });

  it('never calls an estimated total a bound', async () => {
    const { __type } = await query(
      t.services,
      '{ __type(name: "StoreConnection") { fields { name description } } }',
    );
    const exact = __type.fields.find((f: { name: string }) => f.name === 'totalCountExact');
    expect(exact.description).toMatch(/lower or higher/);
  });

  it('says paging is forward-only in the arguments', async () => {
    const { __type } = await query(
      t.services,
      '{ __type(name: "Query") { fields { name args { name description } } } }',
    );
    const stores = __type.fields.find((f: { name: string }) => f.name === 'stores');
    const after = stores.args.find((a: { name: string }) => a.name === 'after');
    expect(after.description).toMatch(/forward-only/i);
  });
});
