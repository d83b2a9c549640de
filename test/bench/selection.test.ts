import { describe, expect, it } from 'vitest';
import { filterParts, isSelected } from '../../bench/selection.ts';

describe('narrowing a bench run by name', () => {
  it('reads the comma-separated parts, trimmed and in lower case', () => {
    expect(filterParts(' Store Card, ,without totalCount ')).toEqual([
      'store card',
      'without totalcount',
    ]);
    expect(filterParts('')).toEqual([]);
    expect(filterParts(undefined)).toEqual([]);
  });

  it('runs a name containing one of the parts, and every name when there are none', () => {
    const parts = filterParts('card columns,Products');
    expect(
      isSelected(parts, 'store card by domain, card columns only (no relations) · GraphQL'),
    ).toBe(true);
    expect(
      isSelected(parts, "a store's products by domain (20 rows, best-sellers first) · GraphQL"),
    ).toBe(true);
    expect(isSelected(parts, 'store card by domain · GraphQL')).toBe(false);
    expect(isSelected([], 'store card by domain · GraphQL')).toBe(true);
  });
});
