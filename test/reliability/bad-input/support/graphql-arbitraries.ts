// Variables for a GraphQL field's arguments, generated from the schema's own argument types: mostly
// values of the right shape carrying hostile content (huge and negative numbers, unicode, SSRF-ish
// URLs, injection text, oversized lists, unknown input fields), sometimes the wrong JSON type or a
// null where the type forbids one, so coercion, zod validation and the resolvers all get their turn.
import fc from 'fast-check';
import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLInputType,
} from 'graphql';
import { HOSTILE_NUMBERS, HOSTILE_TEXT } from './arbitraries.ts';

const text = fc.oneof(
  fc.constantFrom(...HOSTILE_TEXT),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('acme-apparel.com', 'klaviyo', 'classic-hoodie'),
);
const int = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    1,
    100,
    101,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 53,
    -(2 ** 53),
    1.5,
  ),
  fc.integer(),
);
const float = fc.oneof(
  fc.constantFrom(0, -0.0001, 1e308, -1e308, 5e-324, 2 ** 53 + 2),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const wrongType = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(...HOSTILE_NUMBERS));

const MAX_DEPTH = 3;

function arbitraryValueOf(type: GraphQLInputType, depth: number): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) {
    return fc.oneof(
      { weight: 12, arbitrary: arbitraryValueOf(type.ofType, depth) },
      { weight: 1, arbitrary: fc.constant(null) },
    );
  }
  const nullable = (arbitrary: fc.Arbitrary<unknown>) =>
    fc.oneof(
      { weight: 10, arbitrary },
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: wrongType },
    );
  if (isListType(type)) {
    const item = arbitraryValueOf(type.ofType, depth + 1);
    return nullable(
      fc.oneof(
        { weight: 6, arbitrary: fc.array(item, { maxLength: 12 }) },
        // a single value where a list is expected: GraphQL coerces it to a list of one
        { weight: 1, arbitrary: item },
        { weight: 1, arbitrary: fc.array(item, { minLength: 100, maxLength: 1_500 }) },
      ),
    );
  }
  if (isEnumType(type)) {
    return nullable(fc.oneof(fc.constantFrom(...type.getValues().map((v) => v.name)), text));
  }
  if (isInputObjectType(type)) {
    if (depth > MAX_DEPTH) return fc.constant({});
    const fields = Object.values(type.getFields());
    const record = fc.record(
      Object.fromEntries(
        fields.map((field) => [field.name, arbitraryValueOf(field.type, depth + 1)]),
      ),
      { requiredKeys: [] },
    );
    const extra = fc.dictionary(
      fc.constantFrom('unknownField', '__proto__', 'constructor', 'where'),
      wrongType,
      { maxKeys: 2 },
    );
    return nullable(
      fc.oneof(
        { weight: 6, arbitrary: record },
        { weight: 1, arbitrary: fc.tuple(record, extra).map(([r, e]) => ({ ...r, ...e })) },
      ),
    );
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
        return nullable(int);
      case 'Float':
        return nullable(fc.oneof(float, int));
      case 'Boolean':
        return nullable(fc.boolean());
      default:
        // String, ID and custom scalars (dates, URLs, JSON) all arrive as text
        return nullable(
          fc.oneof(
            text,
            fc.constantFrom(
              '2025-01-01',
              '2025-13-45',
              '2025-01-01T00:00:00Z',
              'https://127.0.0.1/',
              'http://hooks.example.com/x',
            ),
          ),
        );
    }
  }
  return wrongType;
}

/** Variables for every argument of a field; optional arguments are sometimes left out. */
export function variablesFor(
  args: readonly GraphQLArgument[],
): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(
    Object.fromEntries(args.map((arg) => [arg.name, arbitraryValueOf(arg.type, 0)])),
    {
      requiredKeys: args.filter((arg) => isNonNullType(arg.type)).map((arg) => arg.name),
    },
  );
}
