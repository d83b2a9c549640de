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
        expect(
          estimateVisits({ ...i, productCount: i.productCount + 10 }).monthlyVisits,
        ).toBeGreaterThanOrEqual(estimateVisits(i).monthlyVisits);
      }),
    );
    expect(
      estimateVisits({ socialFollowers: 0, productCount: 100, appCount: 0 }).monthlyVisits,
    ).toBeGreaterThan(
      estimateVisits({ socialFollowers: 0, productCount: 90, appCount: 0 }).monthlyVisits,
    );
  });

  it('lets third-party visits dominate when present', () => {
    // signals: 40 x sqrt(1 + 5) x (1 + 0.15 x 1) + 3 x 10 = 40 x 2.4495 x 1.15 + 30 = 142.68 -> 143
    // blend: 0.9 x 1,000,000 + 0.1 x 142.68 = 900,014.27 -> 900,014
    const covered = estimateVisits({
      socialFollowers: 10,
      productCount: 5,
      appCount: 1,
      thirdPartyVisits: 1_000_000,
    });
    expect(covered).toEqual({ monthlyVisits: 900_014, basis: 'third_party', signalEstimate: 143 });
  });

  it('treats null third-party data as not covered, and zero third-party visits as covered', () => {
    // signals: 40 x sqrt(21) x (1 + 0.15 x 3) + 3 x 1,000 = 40 x 4.5826 x 1.45 + 3,000 = 3,265.79 -> 3,266
    const signals = { socialFollowers: 1000, productCount: 20, appCount: 3 };
    expect(estimateVisits({ ...signals, thirdPartyVisits: null })).toEqual({
      monthlyVisits: 3_266,
      basis: 'observed_signals',
      signalEstimate: 3_266,
    });
    // 0.9 x 0 + 0.1 x 3,265.79 = 326.58 -> 327
    expect(estimateVisits({ ...signals, thirdPartyVisits: 0 })).toEqual({
      monthlyVisits: 327,
      basis: 'third_party',
      signalEstimate: 3_266,
    });
  });

  describe('worked by hand from the documented model', () => {
    // 40 x sqrt(1 + productCount) x (1 + 0.15 x appCount) + 3 x socialFollowers, rounded
    it('counts each app as a 15% uplift of the catalog baseline', () => {
      // 40 x sqrt(1 + 3) x (1 + 0.15 x 2) = 40 x 2 x 1.3 = 104
      expect(
        estimateVisits({ socialFollowers: 0, productCount: 3, appCount: 2 }).monthlyVisits,
      ).toBe(104);
    });

    it('counts three visits a month per social follower', () => {
      // 40 x sqrt(1) x 1 + 3 x 500 = 40 + 1,500 = 1,540
      expect(
        estimateVisits({ socialFollowers: 500, productCount: 0, appCount: 0 }).monthlyVisits,
      ).toBe(1_540);
    });

    it('adds the three together', () => {
      // 40 x sqrt(1 + 99) x (1 + 0.15 x 4) + 3 x 2,000 = 40 x 10 x 1.6 + 6,000 = 640 + 6,000 = 6,640
      expect(
        estimateVisits({ socialFollowers: 2_000, productCount: 99, appCount: 4 }).monthlyVisits,
      ).toBe(6_640);
    });
  });

  it('returns whole, non-negative visits even for negative inputs', () => {
    const v = estimateVisits({
      socialFollowers: -5,
      productCount: -1,
      appCount: -3,
      thirdPartyVisits: -10,
    });
    expect(Number.isInteger(v.monthlyVisits)).toBe(true);
    expect(v.monthlyVisits).toBeGreaterThanOrEqual(0);
  });
});
