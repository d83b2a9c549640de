import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateVisits } from '../../../src/stores/model/visits.ts';

const inputs = fc.record({
  socialFollowers: fc.integer({ min: 0, max: 5_000_000 }),
  productCount: fc.integer({ min: 0, max: 50_000 }),
  appCount: fc.integer({ min: 0, max: 60 }),
});

describe('estimateVisits', () => {
  it('gives a store with no observed signals a small non-zero baseline', () => {
    const v = estimateVisits({ socialFollowers: 0, productCount: 0, appCount: 0 });
    expect(v.basis).toBe('observed_signals');
    expect(v.monthlyVisits).toBe(40);
  });

  it('grows with every observed signal', () => {
    fc.assert(
      fc.property(inputs, fc.constantFrom('socialFollowers', 'appCount' as const), (i, key) => {
        const more = { ...i, [key]: i[key] + 10 };
        expect(estimateVisits(more).monthlyVisits).toBeGreaterThan(estimateVisits(i).monthlyVisits);
      }),
    );
    // the catalog counts as its square root: ten more products in a catalog of tens of thousands add
    // less than one visit, which rounding may hide, so it never lowers the figure and grows it when small
    fc.assert(
      fc.property(inputs, (i) => {
        expect(estimateVisits({ ...i, productCount: i.productCount + 10 }).monthlyVisits).toBeGreaterThanOrEqual(estimateVisits(i).monthlyVisits);
      }),
    );
    expect(estimateVisits({ socialFollowers: 0, productCount: 100, appCount: 0 }).monthlyVisits).toBeGreaterThan(
      estimateVisits({ socialFollowers: 0, productCount: 90, appCount: 0 }).monthlyVisits,
    );
  });

  it('lets third-party visits dominate when present', () => {
    const signals = { socialFollowers: 10, productCount: 5, appCount: 1 };
    const covered = estimateVisits({ ...signals, thirdPartyVisits: 1_000_000 });
    expect(covered.basis).toBe('third_party');
    expect(covered.monthlyVisits).toBeGreaterThan(900_000);
    expect(covered.monthlyVisits).toBeLessThan(1_000_000);
    expect(covered.signalEstimate).toBe(estimateVisits(signals).monthlyVisits);
  });

  it('treats null third-party data as not covered, and zero third-party visits as covered', () => {
    const signals = { socialFollowers: 1000, productCount: 20, appCount: 3 };
    expect(estimateVisits({ ...signals, thirdPartyVisits: null }).basis).toBe('observed_signals');
    const zero = estimateVisits({ ...signals, thirdPartyVisits: 0 });
    expect(zero.basis).toBe('third_party');
    expect(zero.monthlyVisits).toBe(Math.round(0.1 * estimateVisits(signals).monthlyVisits));
  });

  it('returns whole, non-negative visits even for negative inputs', () => {
    const v = estimateVisits({ socialFollowers: -5, productCount: -1, appCount: -3, thirdPartyVisits: -10 });
    expect(Number.isInteger(v.monthlyVisits)).toBe(true);
    expect(v.monthlyVisits).toBeGreaterThanOrEqual(0);
  });
});
