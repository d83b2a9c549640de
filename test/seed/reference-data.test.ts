import { describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../src/seed/reference-data.ts';
import { VERTICAL_CONVERSION } from '../../src/stores/model/revenue.ts';

const data = loadReferenceData();

describe('reference data', () => {
  it('lists about a hundred app-store apps with detection patterns that compile', () => {
    expect(data.apps.length).toBeGreaterThanOrEqual(90);
    expect(new Set(data.apps.map((a) => a.slug)).size).toBe(data.apps.length);
    for (const app of data.apps) {
      for (const pattern of app.detectionPatterns)
        expect(() => new RegExp(pattern, 'i'), app.slug).not.toThrow();
    }
    const slugs = data.apps.map((a) => a.slug);
    expect(slugs).toEqual(
      expect.arrayContaining([
        'klaviyo-email-marketing',
        'judgeme',
        'loox',
        'dsers',
        'zendrop',
        'pagefly',
      ]),
    );
  });

  it('marks the dropshipping apps', () => {
    const dropshipping = data.apps.filter((a) => a.dropshipping).map((a) => a.slug);
    expect(dropshipping).toEqual(expect.arrayContaining(['dsers', 'zendrop', 'spocket', 'oberlo']));
    expect(dropshipping).not.toContain('klaviyo-email-marketing');
  });

  it('detects an app in storefront HTML', () => {
    const html = '<script src="https://static.klaviyo.com/onsite/js/klaviyo.js"></script>';
    const found = data.apps.filter((a) =>
      a.detectionPatterns.some((p) => new RegExp(p, 'i').test(html)),
    );
    expect(found.map((a) => a.slug)).toEqual(['klaviyo-email-marketing']);
  });

  it('weights verticals as the platform is: Apparel first, then Health & Beauty, then Home & Garden', () => {
    const byWeight = [...data.verticals].sort((a, b) => b.weight - a.weight).map((v) => v.name);
    expect(byWeight.slice(0, 3)).toEqual([
      'Apparel & Accessories',
      'Health & Beauty',
      'Home & Garden',
    ]);
    const total = data.verticals.reduce((s, v) => s + v.weight, 0);
    const apparel = data.verticals.find((v) => v.slug === 'apparel-and-accessories')!;
    expect(apparel.weight / total).toBeGreaterThan(0.25);
    expect(apparel.categories.map((c) => c.name)).toEqual(
      expect.arrayContaining(['Clothing', 'Shoes', 'Jewelry']),
    );
    for (const v of data.verticals) expect(VERTICAL_CONVERSION[v.name], v.name).toBeDefined();
  });

  it('gives the United States a little over half of the stores, each country with its currency', () => {
    const total = data.countries.reduce((s, c) => s + c.weight, 0);
    const us = data.countries.find((c) => c.code === 'US')!;
    expect(us.weight / total).toBeGreaterThan(0.5);
    expect(us.weight / total).toBeLessThan(0.62);
    expect(data.countries.length).toBeGreaterThanOrEqual(25);
    expect(data.countries.find((c) => c.code === 'DE')!.currency).toBe('EUR');
  });
});
