import { describe, expect, it } from 'vitest';
import { percentChange } from '../../../src/stores/model/growth.ts';

describe('percentChange', () => {
  it('gives the signed percent change rounded to 2 decimals', () => {
    expect(percentChange(100, 150)).toBe(50);
    expect(percentChange(200, 150)).toBe(-25);
    expect(percentChange(3, 4)).toBe(33.33);
    expect(percentChange(80, 80)).toBe(0);
  });

  it('is null when the base is 0 or not a number', () => {
    expect(percentChange(0, 10)).toBeNull();
    expect(percentChange(0, 0)).toBeNull();
    expect(percentChange(Number.NaN, 10)).toBeNull();
    expect(percentChange(10, Number.POSITIVE_INFINITY)).toBeNull();
  });

  it('reports a drop to zero as -100%', () => {
    expect(percentChange(500, 0)).toBe(-100);
  });
});
