import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  classifyDropshipper,
  DROPSHIPPER_THRESHOLD,
} from '../../../src/stores/model/dropshipper.ts';

const brand = {
  dropshippingAppCount: 0,
  dropshipTextSignals: 0,
  productCount: 40,
  medianPriceUsd: 60,
};

describe('classifyDropshipper', () => {
  it('does not classify a brand without signals', () => {
    const c = classifyDropshipper(brand);
    expect(c.isDropshipper).toBe(false);
    expect(c.score).toBeLessThan(0.1);
  });

  it('needs more than one dropshipping app alone', () => {
    expect(classifyDropshipper({ ...brand, dropshippingAppCount: 1 }).isDropshipper).toBe(false);
    expect(classifyDropshipper({ ...brand, dropshippingAppCount: 2 }).isDropshipper).toBe(true);
    expect(
      classifyDropshipper({ ...brand, dropshippingAppCount: 1, dropshipTextSignals: 2 })
        .isDropshipper,
    ).toBe(true);
  });

  it('counts a wide catalog of cheap products', () => {
    const narrow = classifyDropshipper({ ...brand, dropshipTextSignals: 2, medianPriceUsd: 25 });
    const wide = classifyDropshipper({
      ...brand,
      dropshipTextSignals: 2,
      medianPriceUsd: 25,
      productCount: 400,
    });
    expect(wide.score).toBeGreaterThan(narrow.score);
  });

  it('scores within 0..1, monotone in its signals, classified at the threshold', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.option(fc.double({ min: 0.5, max: 2000, noNaN: true })),
        (apps, text, products, price) => {
          const i = {
            dropshippingAppCount: apps,
            dropshipTextSignals: text,
            productCount: products,
            medianPriceUsd: price,
          };
          const c = classifyDropshipper(i);
          expect(c.score).toBeGreaterThanOrEqual(0);
          expect(c.score).toBeLessThanOrEqual(1);
          expect(c.isDropshipper).toBe(c.score >= DROPSHIPPER_THRESHOLD);
          expect(
            classifyDropshipper({ ...i, dropshippingAppCount: apps + 1 }).score,
          ).toBeGreaterThanOrEqual(c.score);
          expect(
            classifyDropshipper({ ...i, dropshipTextSignals: text + 1 }).score,
          ).toBeGreaterThanOrEqual(c.score);
        },
      ),
    );
  });
});
