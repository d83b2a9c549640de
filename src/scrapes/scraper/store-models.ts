// The modeled figures of a scraped store: the documented pure model functions of src/stores/model
// applied to what the scrape observed (plus the inputs a storefront does not show: social
// followers and the third-party traffic panel, kept from the catalog when it has them).
import { estimateAdSpend } from '../../stores/model/ad-spend.ts';
import { classifyDropshipper } from '../../stores/model/dropshipper.ts';
import { rateStore } from '../../stores/model/rating.ts';
import { estimateRevenue } from '../../stores/model/revenue.ts';
import { estimateVisits } from '../../stores/model/visits.ts';
import { DROPSHIPPING_CATEGORIES, REVIEWS_CATEGORIES, SUPPORT_CATEGORIES } from './app-fingerprints.ts';
import type { StorefrontObservation } from './observe-storefront.ts';

export interface ModelContext {
  medianPriceUsd: number | null;
  vertical: string | null;
  socialFollowers: number;
  /** latest third-party panel figure and paid share, when the store is covered */
  thirdParty: { visits: number; paidPct: number } | null;
}

export interface StoreModels {
  monthlyVisits: number;
  revenueLowUsd: number;
  revenueHighUsd: number;
  conversionLowPct: number;
  conversionHighPct: number;
  averageOrderValueUsd: number | null;
  adSpendUsd: number;
  isDropshipper: boolean;
  dropshipperScore: number;
  serviceRating: number;
  serviceGrade: string;
}

const INT32_MAX = 2_147_483_647;
const int32 = (n: number) => Math.min(INT32_MAX, Math.max(0, Math.round(n)));

export function modelStore(observation: StorefrontObservation, context: ModelContext): StoreModels {
  const productCount = observation.products.length;
  const appCount = observation.apps.length;
  const inCategory = (categories: ReadonlySet<string>) => observation.apps.filter((a) => a.category && categories.has(a.category)).length;
  const dropshipper = classifyDropshipper({
    dropshippingAppCount: inCategory(DROPSHIPPING_CATEGORIES),
    dropshipTextSignals: observation.dropshipSignals,
    productCount,
    medianPriceUsd: context.medianPriceUsd,
  });
  const { monthlyVisits } = estimateVisits({
    socialFollowers: context.socialFollowers,
    productCount,
    appCount,
    thirdPartyVisits: context.thirdParty?.visits ?? null,
  });
  const revenue = estimateRevenue({ monthlyVisits, medianPriceUsd: context.medianPriceUsd, vertical: context.vertical });
  const adSpendUsd = estimateAdSpend({
    monthlyVisits,
    paidTrafficPct: context.thirdParty?.paidPct ?? null,
    isDropshipper: dropshipper.isDropshipper,
    averageOrderValueUsd: revenue.averageOrderValueUsd,
  });
  const rating = rateStore({
    monthlyVisits,
    productCount,
    appCount,
    hasReviewsApp: inCategory(REVIEWS_CATEGORIES) > 0,
    hasSupportApp: inCategory(SUPPORT_CATEGORIES) > 0,
    hasContactEmail: observation.emails.length > 0,
    socialProfiles: Object.values(observation.socials).filter(Boolean).length,
    socialFollowers: context.socialFollowers,
    dropshipperScore: dropshipper.score,
  });
  return {
    monthlyVisits: int32(monthlyVisits),
    revenueLowUsd: int32(revenue.low),
    revenueHighUsd: int32(revenue.high),
    conversionLowPct: revenue.conversionLowPct,
    conversionHighPct: revenue.conversionHighPct,
    averageOrderValueUsd: revenue.averageOrderValueUsd,
    adSpendUsd: int32(adSpendUsd),
    isDropshipper: dropshipper.isDropshipper,
    dropshipperScore: dropshipper.score,
    serviceRating: rating.rating,
    serviceGrade: rating.grade,
  };
}

/** Median of the products' prices in USD; null when nothing is priced or the currency has no known rate. */
export function medianPriceUsd(prices: readonly number[], usdRate: number | undefined): number | null {
  if (prices.length === 0 || usdRate === undefined || !(usdRate > 0)) return null;
  const usd = prices.map((p) => p / usdRate).sort((a, b) => a - b);
  const mid = Math.floor(usd.length / 2);
  const median = usd.length % 2 ? usd[mid]! : (usd[mid - 1]! + usd[mid]!) / 2;
  return Math.round(median * 100) / 100;
}
