import { describe, expect, it } from 'vitest';
import { costPerClick, estimateAdSpend } from '../../../src/stores/model/ad-spend.ts';

describe('estimateAdSpend', () => {
  const base = {
    monthlyVisits: 100_000,
    paidTrafficPct: null,
    isDropshipper: false,
    averageOrderValueUsd: 50,
  };

  it('uses the paid share of the third-party mix when known', () => {
    // CPC = 0.35 + 0.012 x 80 = 1.31; 100,000 visits x 35% paid x 1.31 = 45,850
    expect(estimateAdSpend({ ...base, paidTrafficPct: 35, averageOrderValueUsd: 80 })).toBe(45_850);
  });

  it('assumes dropshippers buy more of their traffic', () => {
    expect(estimateAdSpend({ ...base, isDropshipper: true })).toBeGreaterThan(
      estimateAdSpend(base),
    );
  });

  it('is 0 without visits and bounded cost per click', () => {
    expect(estimateAdSpend({ ...base, monthlyVisits: 0 })).toBe(0);
    expect(costPerClick(1e6)).toBe(3);
    expect(costPerClick(0)).toBe(0.35);
    expect(costPerClick(null)).toBe(0.8);
  });
});

describe('estimateAdSpend, worked by hand', () => {
  it('buys the paid share of the mix at 0.35 + 0.012 x AOV per click', () => {
    // CPC = 0.35 + 0.012 x 50 = 0.95; 100,000 visits x 20% paid x 0.95 = 19,000
    expect(
      estimateAdSpend({
        monthlyVisits: 100_000,
        paidTrafficPct: 20,
        isDropshipper: false,
        averageOrderValueUsd: 50,
      }),
    ).toBe(19_000);
  });

  it('assumes 30% paid for a dropshipper without third-party data', () => {
    // CPC = 0.35 + 0.012 x 100 = 1.55; 100,000 x 30% x 1.55 = 46,500
    expect(
      estimateAdSpend({
        monthlyVisits: 100_000,
        paidTrafficPct: null,
        isDropshipper: true,
        averageOrderValueUsd: 100,
      }),
    ).toBe(46_500);
  });

  it('assumes 10% paid at 0.80 per click for a store with neither data nor AOV, and caps the click at 3 USD', () => {
    expect(
      estimateAdSpend({
        monthlyVisits: 100_000,
        paidTrafficPct: null,
        isDropshipper: false,
        averageOrderValueUsd: null,
      }),
    ).toBe(8_000);
    // CPC = 0.35 + 0.012 x 300 = 3.95 -> 3; 50,000 x 10% x 3 = 15,000
    expect(
      estimateAdSpend({
        monthlyVisits: 50_000,
        paidTrafficPct: null,
        isDropshipper: false,
        averageOrderValueUsd: 300,
      }),
    ).toBe(15_000);
  });
});
