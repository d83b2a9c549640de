// GraphQL enum values are UPPER_CASE; the values behind them (SQL, REST, resolvers) stay the
// lower-case words of the REST contract, so only the GraphQL spelling changes.

/** A lower-case, snake_case or camelCase word as GraphQL spells it: productSearches is PRODUCT_SEARCHES. */
export type GraphqlEnumName<S extends string> = S extends `${infer H}${infer R}`
  ? `${H extends Lowercase<H> ? Uppercase<H> : `_${H}`}${GraphqlEnumName<R>}`
  : S;

const graphqlEnumName = (value: string): string =>
  value.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();

/**
 * Pothos enum values: each lower-case value under its UPPER_CASE name, with its description. The
 * descriptions map must name every value, so a new value fails to compile until it says what it means.
 */
export function upperCaseValues<const T extends string>(
  values: readonly T[],
  descriptions: { readonly [K in T]: string },
): { [K in T as GraphqlEnumName<K>]: { value: K; description: string } } {
  return Object.fromEntries(
    values.map((value) => [graphqlEnumName(value), { value, description: descriptions[value] }]),
  ) as never;
}

/** REST's lower-case value as GraphQL spells it (route tables: query parameters to variables). */
export const toGraphqlEnum = <T extends string>(value: T): GraphqlEnumName<T> =>
  graphqlEnumName(value) as GraphqlEnumName<T>;

/** GraphQL's UPPER_CASE value as REST spells it (route tables: data to /v1 bodies). */
export const fromGraphqlEnum = <T extends string>(value: T): Lowercase<T> =>
  value.toLowerCase() as Lowercase<T>;
