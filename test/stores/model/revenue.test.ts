import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  averageOrderValue,
  conversionBand,
  DEFAULT_CONVERSION,
  estimateRevenue,
  VERTICAL_CONVERSION,
} from '../../../src/stores/model/revenue.ts';

const taxonomy = JSON.parse(
  readFileSync(new URL('../../../data/taxonomy.json', import.meta.url), 'utf8'),
) as {
  verticals: { name: string }[];
};

describe('estimateRevenue', () => {
  it('multiplies visits, the conversion band and the average order value', () => {
    // items per order = 1 + 0.9 x e^(-50/35) = 1.2157; AOV = 50 x 1.2157 = 60.78
    // price factor = (50 / 60.78)^0.2 = 0.9617; band = 1.0 x 0.9617 = 0.96% .. 2.4 x 0.9617 = 2.31%
    // low = 10,000 x 0.96% x 60.78 = 5,834.88 -> 5,835; high = 10,000 x 2.31% x 60.78 = 14,040.18 -> 14,040
    expect(
      estimateRevenue({
        monthlyVisits: 10_000,
        medianPriceUsd: 50,
        vertical: 'Apparel & Accessories',
      }),
    ).toEqual({
      low: 5_835,
      high: 14_040,
      conversionLowPct: 0.96,
      conversionHighPct: 2.31,
      averageOrderValueUsd: 60.78,
    });
  });

  it('is 0..0 with zero visits or without priced products, keeping the band visible', () => {
    const noVisits = estimateRevenue({
      monthlyVisits: 0,
      medianPriceUsd: 30,
      vertical: 'Health & Beauty',
    });
    expect([noVisits.low, noVisits.high]).toEqual([0, 0]);
    expect(noVisits.conversionLowPct).toBeGreaterThan(0);
    const noPrice = estimateRevenue({
      monthlyVisits: 5000,
      medianPriceUsd: null,
      vertical: 'Health & Beauty',
    });
    expect([noPrice.low, noPrice.high, noPrice.averageOrderValueUsd]).toEqual([0, 0, null]);
  });

  it('keeps low <= high and grows with visits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50_000_000 }),
        fc.double({ min: 0.5, max: 3000, noNaN: true }),
        fc.constantFrom(...Object.keys(VERTICAL_CONVERSION), 'Unknown'),
        (visits, price, vertical) => {
          const r = estimateRevenue({ monthlyVisits: visits, medianPriceUsd: price, vertical });
          const more = estimateRevenue({
            monthlyVisits: visits + 1000,
            medianPriceUsd: price,
            vertical,
          });
          expect(r.low).toBeLessThanOrEqual(r.high);
          expect(more.high).toBeGreaterThanOrEqual(r.high);
          expect(more.low).toBeGreaterThanOrEqual(r.low);
        },
      ),
    );
  });

  it('converts expensive baskets less, within bounds', () => {
    const cheap = conversionBand('Electronics', 20);
    const pricey = conversionBand('Electronics', 800);
    expect(pricey.highPct).toBeLessThan(cheap.highPct);
    expect(conversionBand('Electronics', 1e9).highPct).toBeCloseTo(
      VERTICAL_CONVERSION.Electronics!.highPct * 0.6,
      2,
    );
  });

  it('buys more items per order when items are cheap', () => {
    expect(averageOrderValue(10)! / 10).toBeGreaterThan(averageOrderValue(200)! / 200);
    expect(averageOrderValue(0)).toBeNull();
  });

  it('has a conversion band for every vertical of the taxonomy, and a default otherwise', () => {
    for (const v of taxonomy.verticals) expect(VERTICAL_CONVERSION[v.name], v.name).toBeDefined();
    expect(conversionBand('Not a vertical', null)).toEqual(DEFAULT_CONVERSION);
  });
});

describe('estimateRevenue, worked by hand', () => {
  it('prices an apparel store with a 35 USD median price and 100,000 visits', () => {
    // items per order = 1 + 0.9 x e^-1 = 1.3311; AOV = 35 x 1.3311 = 46.59
    // price factor = (50 / 46.59)^0.2 = 1.0142; band = 1.0 x 1.0142 = 1.01% .. 2.4 x 1.0142 = 2.43%
    // low = 100,000 x 1.01% x 46.59 = 47,055.9 -> 47,056; high = 100,000 x 2.43% x 46.59 = 113,213.7 -> 113,214
    expect(
      estimateRevenue({
        monthlyVisits: 100_000,
        medianPriceUsd: 35,
        vertical: 'Apparel & Accessories',
      }),
    ).toEqual({
      low: 47_056,
      high: 113_214,
      conversionLowPct: 1.01,
      conversionHighPct: 2.43,
      averageOrderValueUsd: 46.59,
    });
  });

  it('lowers the band of an expensive food basket by its price level', () => {
    // AOV = 200 x (1 + 0.9 x e^(-200/35)) = 200.59; factor = (50 / 200.59)^0.2 = 0.7574
    // band = 1.8 x 0.7574 = 1.36% .. 4.0 x 0.7574 = 3.03%; 20,000 visits: 272 x 200.59 = 54,560 .. 606 x 200.59 = 121,558
    expect(
      estimateRevenue({
        monthlyVisits: 20_000,
        medianPriceUsd: 200,
        vertical: 'Food, Beverages & Tobacco',
      }),
    ).toEqual({
      low: 54_560,
      high: 121_558,
      conversionLowPct: 1.36,
      conversionHighPct: 3.03,
      averageOrderValueUsd: 200.59,
    });
  });
});
