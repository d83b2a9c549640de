// GraphQL spells every enum value in UPPER_CASE (issue 32 item 9), while the values behind them
// stay the lower-case words REST and the code use.
import { isEnumType, isIntrospectionType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { fromGraphqlEnum, toGraphqlEnum, upperCaseValues } from '../../src/graphql/enums.ts';
import { schema } from '../../src/gateway/schema.ts';

describe('GraphQL enum values', () => {
  it('are UPPER_CASE in every enum of the published schema', () => {
    const offending = Object.values(schema.getTypeMap())
      .filter((type) => isEnumType(type) && !isIntrospectionType(type))
      .flatMap((type) => (isEnumType(type) ? type.getValues() : []).map((v) => [type.name, v.name]))
      .filter(([, name]) => !/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(name!))
      .map(([type, name]) => `${type}.${name}`);
    expect(offending).toEqual([]);
  });

  it('keep the lower-case value behind each UPPER_CASE name, with its description', () => {
    expect(
      upperCaseValues(['storeLookups', 'already_exists', 'up'], {
        storeLookups: 'Store lookups.',
        already_exists: 'Already there.',
        up: 'Rising.',
      }),
    ).toEqual({
      STORE_LOOKUPS: { value: 'storeLookups', description: 'Store lookups.' },
      ALREADY_EXISTS: { value: 'already_exists', description: 'Already there.' },
      UP: { value: 'up', description: 'Rising.' },
    });
  });

  it("map REST's lower-case spelling to GraphQL's and back", () => {
    expect(toGraphqlEnum('sales_spike')).toBe('SALES_SPIKE');
    expect(toGraphqlEnum('productAppLookups')).toBe('PRODUCT_APP_LOOKUPS');
    expect(toGraphqlEnum('visits')).toBe('VISITS');
    expect(fromGraphqlEnum('NOT_CONFIGURED')).toBe('not_configured');
    expect(fromGraphqlEnum('DONE')).toBe('done');
  });
});
