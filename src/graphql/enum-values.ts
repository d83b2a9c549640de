// Pothos enum values with a description each: the values stay the lower-case words the code and
// REST use, and the descriptions map must name every value, so a new value fails to compile
// until it says what it means.

/** Each value of `values` under its own name, with its description from `descriptions`. */
export function describedValues<const T extends string>(
  values: readonly T[],
  descriptions: { readonly [K in T]: string },
): { [K in T]: { value: K; description: string } } {
  return Object.fromEntries(
    values.map((value) => [value, { value, description: descriptions[value] }]),
  ) as never;
}
