import { describe, expect, it } from 'vitest';
import { costPerClick, estimateAdSpend } from '../../../src/stores/model/ad-spend.ts';

describe('estimateAdSpend', () => {
  const base = { monthlyVisits: 100_000, paidTrafficPct: null, isDropshipper: false, averageOrderValueUsd: 50 };

  it('uses the paid share of the third-party mix when known', () => {
    expect(estimateAdSpend({ ...base, paidTrafficPct: 20 })).toBe(Math.round(100_000 * 0.2 * costPerClick(50)));
  });

  it('assumes dropshippers buy more of their traffic', () => {
    expect(estimateAdSpend({ ...base, isDropshipper: true })).toBeGreaterThan(estimateAdSpend(base));
  });

  it('is 0 without visits and bounded cost per click', () => {
    expect(estimateAdSpend({ ...base, monthlyVisits: 0 })).toBe(0);
    expect(costPerClick(1e6)).toBe(3);
    expect(costPerClick(0)).toBe(0.35);
    expect(costPerClick(null)).toBe(0.8);
  });
});
