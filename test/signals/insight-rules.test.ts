// The insight rules a probe applies: restock, price_change and sales_spike (2x the trailing median).
import { describe, expect, it } from 'vitest';
import { salesSpike, variantInsights } from '../../src/signals/insights/insight-rules.ts';

const variant = { productHandle: 'tee', variantId: '101', sku: 'TEE-S', title: 'Tee / S' };
const before = new Date('2030-01-01T10:00:00Z');

describe('variant insights', () => {
  it('gives a restock card when stock rose and a price_change card when the price moved', () => {
    const cards = variantInsights(
      'stock.test',
      { ...variant, price: 16, stock: 60 },
      { price: 20, stock: 45, takenAt: before },
    );
    expect(cards.map((c) => c.kind)).toEqual(['restock', 'price_change']);
    expect(cards[0]!.data).toMatchObject({ fromStock: 45, toStock: 60, units: 15, sku: 'TEE-S' });
    expect(cards[1]!.data).toMatchObject({ oldPrice: 20, newPrice: 16, changePct: -20 });
  });

  it('gives nothing for a first reading, a sale, or hidden stock at the same price', () => {
    expect(variantInsights('stock.test', { ...variant, price: 20, stock: 60 }, undefined)).toEqual(
      [],
    );
    expect(
      variantInsights(
        'stock.test',
        { ...variant, price: 20, stock: 40 },
        { price: 20, stock: 45, takenAt: before },
      ),
    ).toEqual([]);
    expect(
      variantInsights(
        'stock.test',
        { ...variant, price: 20, stock: null },
        { price: 20, stock: null, takenAt: before },
      ),
    ).toEqual([]);
  });
});

describe('sales spike', () => {
  const days = [
    { day: '2030-01-08', units: 8, revenueUsd: 100 },
    { day: '2030-01-09', units: 4, revenueUsd: 80 },
    { day: '2030-01-10', units: 9, revenueUsd: 110 },
  ];

  it('fires when the day reaches twice the trailing median and at least 5 units', () => {
    const spike = salesSpike(
      'stock.test',
      [...days, { day: '2030-01-11', units: 16, revenueUsd: 320 }],
      '2030-01-11',
    );
    expect(spike).toMatchObject({
      kind: 'sales_spike',
      data: { day: '2030-01-11', units: 16, trailingMedianUnits: 8, trailingDays: 3 },
    });
  });

  it("names a yen store's revenue in yen and gives no USD figure for it", () => {
    const spike = salesSpike(
      'yen.test',
      [...days, { day: '2030-01-11', units: 16, revenueUsd: 86_768 }],
      '2030-01-11',
      'JPY',
    );
    expect(spike?.data).toMatchObject({
      units: 16,
      revenue: 86_768,
      currency: 'JPY',
      revenueUsd: null,
    });
    expect(spike?.body).toContain('86768.00 JPY revenue');
    const dollars = salesSpike(
      'stock.test',
      [...days, { day: '2030-01-11', units: 16, revenueUsd: 320 }],
      '2030-01-11',
      'USD',
    );
    expect(dollars?.data).toMatchObject({ revenue: 320, currency: 'USD', revenueUsd: 320 });
  });

  it('stays quiet below the factor, with fewer than 3 trailing days, or for a day without an estimate', () => {
    expect(
      salesSpike(
        'stock.test',
        [...days, { day: '2030-01-11', units: 15, revenueUsd: 300 }],
        '2030-01-11',
      ),
    ).toBeNull();
    expect(
      salesSpike(
        'stock.test',
        [...days.slice(1), { day: '2030-01-11', units: 40, revenueUsd: 800 }],
        '2030-01-11',
      ),
    ).toBeNull();
    expect(salesSpike('stock.test', days, '2030-01-11')).toBeNull();
  });

  it('ignores days older than the trailing week', () => {
    const old = [
      { day: '2029-12-20', units: 1, revenueUsd: 1 },
      { day: '2029-12-21', units: 1, revenueUsd: 1 },
      { day: '2029-12-22', units: 1, revenueUsd: 1 },
    ];
    expect(
      salesSpike(
        'stock.test',
        [...old, { day: '2030-01-11', units: 40, revenueUsd: 800 }],
        '2030-01-11',
      ),
    ).toBeNull();
  });
});
