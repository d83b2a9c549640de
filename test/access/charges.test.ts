import { getOperationAST, parse } from 'graphql';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';
import { operationCost } from '../../src/access/graphql-charges.ts';
import { DEFAULT_PLANS, resolvePlans } from '../../src/access/plans.ts';
import { schema } from '../../src/gateway/schema.ts';

const costOf = (source: string, variables?: Record<string, unknown>) => {
  const document = parse(source);
  return operationCost(schema, document, getOperationAST(document)!, variables);
};

describe('what a GraphQL operation costs', () => {
  it('counts root fields through aliases, fragments and @include/@skip', () => {
    const cost = costOf(
      'query($more: Boolean!) { a: store(domain: "a.com") { domain } ...F ... on Query { apps { totalCount } } x: products(filter: {q: "x"}) @include(if: $more) { totalCount } } fragment F on Query { stores { totalCount } }',
      { more: false },
    );
    expect(cost.charge).toEqual({
      units: 3,
      buckets: { storeLookups: 1, storeSearches: 1, productAppLookups: 1 },
    });
  });

  it("counts node(s) lookups per id, in the bucket of the id's type", () => {
    const ids = [
      encodeGlobalID('Store', '1'),
      encodeGlobalID('Store', '2'),
      encodeGlobalID('Product', '3'),
    ];
    const cost = costOf('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids });
    expect(cost.charge).toEqual({ units: 3, buckets: { storeLookups: 2, productAppLookups: 1 } });
  });

  it("charges one parsed document anew for each request's variables where they decide, and reuses a fixed cost", () => {
    // Yoga hands every request of a query text the same parsed document: what was worked out for
    // one request's variables must never be charged to another's
    const included = parse(
      'query($more: Boolean!) { store(domain: "a.com") { domain } stores @include(if: $more) { totalCount } }',
    );
    const op = getOperationAST(included)!;
    expect(operationCost(schema, included, op, { more: true }).charge.units).toBe(2);
    expect(operationCost(schema, included, op, { more: false }).charge.units).toBe(1);
    expect(operationCost(schema, included, op, { more: true }).charge.units).toBe(2);

    const nodes = parse('query($ids: [ID!]!) { nodes(ids: $ids) { id } }');
    const nodesOp = getOperationAST(nodes)!;
    expect(
      operationCost(schema, nodes, nodesOp, { ids: [encodeGlobalID('Store', '1')] }).charge.units,
    ).toBe(1);
    expect(
      operationCost(schema, nodes, nodesOp, {
        ids: [encodeGlobalID('Store', '1'), encodeGlobalID('Store', '2')],
      }).charge.units,
    ).toBe(2);

    const fixed = parse('query($domain: String!) { store(domain: $domain) { domain } }');
    const fixedOp = getOperationAST(fixed)!;
    const first = operationCost(schema, fixed, fixedOp, { domain: 'a.com' });
    const again = operationCost(schema, fixed, fixedOp, { domain: 'b.com' });
    expect(again).toBe(first);
    expect(again.charge).toEqual({ units: 1, buckets: { storeLookups: 1 } });
    expect(Object.isFrozen(again.charge.buckets)).toBe(true);
  });

  it('lets introspection through free and sets key management apart', () => {
    expect(costOf('{ __schema { types { name } } __typename }').charge.units).toBe(0);
    const cost = costOf('{ apiKeys(accountExternalId: "a") { id } }');
    expect([cost.webAppFields, cost.dataFields]).toEqual([['apiKeys'], []]);
  });
});

describe('the plans table', () => {
  it('takes overrides from PLAN_LIMITS_JSON cell by cell', () => {
    const plans = resolvePlans(
      JSON.stringify({ starter: { perMinute: 120, daily: { storeSearches: 7 } } }),
    );
    expect(plans.starter).toEqual({
      ...DEFAULT_PLANS.starter,
      perMinute: 120,
      daily: { ...DEFAULT_PLANS.starter.daily, storeSearches: 7 },
    });
    expect(plans.pro).toEqual(DEFAULT_PLANS.pro);
  });

  it('refuses an override that does not fit the table', () => {
    expect(() => resolvePlans('{"gold": {}}')).toThrow(/PLAN_LIMITS_JSON/);
    expect(() => resolvePlans('{"starter": {"perMinute": -1}}')).toThrow(/perMinute/);
    expect(() => resolvePlans('not json')).toThrow(/not valid JSON/);
  });
});
