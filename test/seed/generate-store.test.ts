import { describe, expect, it } from 'vitest';
import { canonicalForWrite } from '../../src/platform/legacy/summary.ts';
import { generateStore } from '../../src/seed/generate-store.ts';
import { loadReferenceData } from '../../src/seed/reference-data.ts';
import {
  CHANGE_WINDOW_DAYS,
  createSeedContext,
  DAY_MS,
  HISTORY_DAYS,
} from '../../src/seed/seed-context.ts';
import type { SeededStore } from '../../src/seed/seeded-types.ts';
import { estimateAdSpend } from '../../src/stores/model/ad-spend.ts';
import { classifyDropshipper } from '../../src/stores/model/dropshipper.ts';
import { percentChange } from '../../src/stores/model/growth.ts';
import { rateStore } from '../../src/stores/model/rating.ts';
import { estimateRevenue } from '../../src/stores/model/revenue.ts';
import { estimateVisits } from '../../src/stores/model/visits.ts';

const data = loadReferenceData();
const appIds = new Map(data.apps.map((a, i) => [a.slug, i + 1]));
const today = new Date('2026-03-15T12:00:00Z');
const ctx = createSeedContext({ seed: 'test', today, appIds });
const appsById = new Map(ctx.apps.map((a) => [a.id, a]));
const stores: SeededStore[] = Array.from({ length: 400 }, (_, i) => generateStore(ctx, i + 1));

describe('generateStore', () => {
  it('is a pure function of the seed and the store id', () => {
    const again = createSeedContext({ seed: 'test', today, appIds });
    expect(generateStore(again, 17)).toEqual(stores[16]);
    expect(generateStore(createSeedContext({ seed: 'other', today, appIds }), 17)).not.toEqual(
      stores[16],
    );
  });

  it('writes every modeled column from the model functions applied to the observations', () => {
    for (const s of stores) {
      const apps = s.installs.map((i) => appsById.get(i.appId)!);
      const latestTraffic = s.traffic?.at(-1) ?? null;
      const store = s.store;
      const dropshipper = classifyDropshipper({
        dropshippingAppCount: apps.filter((a) => a.dropshipping).length,
        dropshipTextSignals: store.dropshipSignals,
        productCount: s.products.length,
        medianPriceUsd: store.medianPriceUsd,
      });
      expect([store.isDropshipper, store.dropshipperScore]).toEqual([
        dropshipper.isDropshipper,
        dropshipper.score,
      ]);
      const visits = estimateVisits({
        socialFollowers: store.socialFollowers,
        productCount: s.products.length,
        appCount: s.installs.length,
        thirdPartyVisits: latestTraffic?.visits ?? null,
      });
      expect(store.monthlyVisits).toBe(visits.monthlyVisits);
      const revenue = estimateRevenue({
        monthlyVisits: store.monthlyVisits,
        medianPriceUsd: store.medianPriceUsd,
        vertical: store.vertical,
      });
      expect(store).toMatchObject({
        revenueLowUsd: revenue.low,
        revenueHighUsd: revenue.high,
        conversionLowPct: revenue.conversionLowPct,
        conversionHighPct: revenue.conversionHighPct,
        averageOrderValueUsd: revenue.averageOrderValueUsd,
      });
      expect(store.adSpendUsd).toBe(
        estimateAdSpend({
          monthlyVisits: store.monthlyVisits,
          paidTrafficPct: latestTraffic?.paidPct ?? null,
          isDropshipper: store.isDropshipper,
          averageOrderValueUsd: store.averageOrderValueUsd,
        }),
      );
      const rating = rateStore({
        monthlyVisits: store.monthlyVisits,
        productCount: s.products.length,
        appCount: s.installs.length,
        hasReviewsApp: apps.some((a) => a.category === 'Reviews'),
        hasSupportApp: apps.some(
          (a) => a.category === 'Customer support' || a.category === 'Live chat',
        ),
        hasContactEmail: s.legacy.emails.length > 0,
        socialProfiles: Object.values(s.legacy.socials).filter((v) => v !== null).length,
        socialFollowers: store.socialFollowers,
        dropshipperScore: store.dropshipperScore,
      });
      expect([store.serviceRating, store.serviceGrade]).toEqual([rating.rating, rating.grade]);
    }
  });

  it('ends the 180-day history at the current values, with movers measured 30 days apart', () => {
    for (const { store, history, products } of stores) {
      const last = HISTORY_DAYS - 1;
      expect(history.visits.length).toBe(HISTORY_DAYS);
      expect(history.visits[last]).toBe(store.monthlyVisits);
      expect(history.revenueLow[last]).toBe(store.revenueLowUsd);
      expect(history.revenueHigh[last]).toBe(store.revenueHighUsd);
      expect(history.rating[last]).toBe(store.serviceRating);
      expect(history.productCount[last]).toBe(products.length);
      expect(store.visitsChangePct).toBe(
        percentChange(history.visits[last - 30]!, store.monthlyVisits),
      );
      expect(store.revenueChangePct).toBe(
        percentChange(history.revenueHigh[last - 30]!, store.revenueHighUsd),
      );
      let broken = 0;
      for (let d = 0; d < HISTORY_DAYS; d++) {
        if (history.revenueLow[d]! > history.revenueHigh[d]! || history.productCount[d]! < 0)
          broken++;
      }
      expect(broken).toBe(0);
    }
    expect(ctx.days.at(-1)).toBe('2026-03-15');
    expect(ctx.days[0]).toBe('2025-09-17');
  });

  it('keeps catalog facts consistent: unique handles, ranked best sellers, median price in USD', () => {
    for (const { store, products } of stores) {
      expect(new Set(products.map((p) => p.handle)).size).toBe(products.length);
      const ranks = products
        .flatMap((p) => (p.bestSellerRank === null ? [] : [p.bestSellerRank]))
        .sort((a, b) => a - b);
      expect(ranks).toEqual(Array.from({ length: store.bestSellerCount }, (_, i) => i + 1));
      const rate = data.countries.find((c) => c.code === store.countryCode)!.usdRate;
      const usd = products.map((p) => p.price / rate).sort((a, b) => a - b);
      const mid = usd.length >> 1;
      const median = usd.length % 2 ? usd[mid]! : (usd[mid - 1]! + usd[mid]!) / 2;
      expect(store.medianPriceUsd).toBeCloseTo(median, 2);
      for (const p of products)
        expect(p.currency).toBe(store.currency === 'USD' ? null : store.currency);
    }
  });

  it('records product and app changes inside the 90 days before the last scrape', () => {
    const types = new Set<string>();
    for (const s of stores) {
      const handles = new Set(s.products.map((p) => p.handle));
      const lastScraped = Date.parse(s.store.lastScrapedAt);
      for (const c of s.changes) {
        types.add(c.changeType);
        const at = Date.parse(c.detectedAt);
        expect(at).toBeLessThanOrEqual(lastScraped);
        expect(at).toBeGreaterThanOrEqual(lastScraped - CHANGE_WINDOW_DAYS * DAY_MS);
        if (c.changeType === 'price_increase' || c.changeType === 'price_decrease') {
          expect(handles.has(c.subject!)).toBe(true);
          expect(c.changePct).toBe(percentChange(Number(c.oldValue), Number(c.newValue)));
          expect(c.changeType === 'price_increase').toBe(c.changePct! > 0);
        }
        if (c.changeType === 'new_sku') expect(handles.has(c.subject!)).toBe(true);
        if (c.changeType === 'removed_sku') expect(handles.has(c.subject!)).toBe(false);
      }
    }
    expect([...types]).toEqual(
      expect.arrayContaining([
        'price_increase',
        'price_decrease',
        'new_sku',
        'removed_sku',
        'app_installed',
        'app_uninstalled',
      ]),
    );
  });

  it('gives covered stores 24 months of traffic ending this month, with a channel mix of 100%', () => {
    const covered = stores.filter((s) => s.traffic !== null);
    expect(covered.length / stores.length).toBeGreaterThan(0.2);
    expect(covered.length / stores.length).toBeLessThan(0.45);
    for (const s of covered) {
      expect(s.traffic!.map((m) => m.month)).toEqual(ctx.months);
      expect(ctx.months.at(-1)).toBe('2026-03-01');
      for (const m of s.traffic!) {
        expect(m.organicPct + m.paidPct + m.socialPct + m.directPct + m.referralPct).toBeCloseTo(
          100,
          1,
        );
      }
    }
  });

  it('writes legacy summaries in the canonical form both legacy adapters store', () => {
    for (const s of stores) {
      expect(canonicalForWrite(s.legacy)).toEqual(s.legacy);
      expect(s.legacy.legacyId).toBe(s.store.legacyId);
      expect(s.legacy.domain).toBe(s.store.domain);
      // the profile promises no screenshot that GET /v1/stores/{domain}/screenshot would answer 404 for
      expect(s.legacy.screenshotUrl).toBeNull();
    }
    expect(new Set(stores.map((s) => s.store.legacyId)).size).toBe(stores.length);
  });
});
