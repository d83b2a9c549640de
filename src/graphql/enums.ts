// GraphQL enum values are UPPER_CASE; the values behind them (SQL, REST, resolvers) stay the
// lower-case words of the REST contract, so only the GraphQL spelling changes.

/** Pothos enum values: each lower-case value under its UPPER_CASE name, with its description. */
export function upperCaseValues<const T extends string>(
  values: readonly T[],
  descriptions: { readonly [K in T]?: string } = {},
): { [K in T as Uppercase<K>]: { value: K; description?: string } } {
  return Object.fromEntries(
    values.map((value) => [value.toUpperCase(), { value, description: descriptions[value] }]),
  ) as never;
}

/** REST's lower-case value as GraphQL spells it (route tables: query parameters to variables). */
export const toGraphqlEnum = <T extends string>(value: T): Uppercase<T> =>
  value.toUpperCase() as Uppercase<T>;

/** GraphQL's UPPER_CASE value as REST spells it (route tables: data to /v1 bodies). */
export const fromGraphqlEnum = <T extends string>(value: T): Lowercase<T> =>
  value.toLowerCase() as Lowercase<T>;
