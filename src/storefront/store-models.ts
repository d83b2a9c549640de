// The modeled figures of a scraped store: the documented pure model functions of src/stores/model
// (applyStoreModels) applied to what the scrape observed (plus the inputs a storefront does not show: social
// followers and the third-party traffic panel, kept from the catalog when it has them).
import { applyStoreModels, type ModeledStoreColumns } from '../stores/model/apply-models.ts';
import {
  DROPSHIPPING_CATEGORIES,
  REVIEWS_CATEGORIES,
  SUPPORT_CATEGORIES,
} from './app-fingerprints.ts';
import type { StorefrontObservation } from './read-storefront.ts';

export interface ModelContext {
  medianPriceUsd: number | null;
  vertical: string | null;
  socialFollowers: number;
  /** latest third-party panel figure and paid share, when the store is covered */
  thirdParty: { visits: number; paidPct: number } | null;
}

const INT32_MAX = 2_147_483_647;
const int32 = (n: number) => Math.min(INT32_MAX, Math.max(0, Math.round(n)));

export function modelStore(
  observation: StorefrontObservation,
  context: ModelContext,
): ModeledStoreColumns {
  const productCount = observation.products.length;
  const appCount = observation.apps.length;
  const inCategory = (categories: ReadonlySet<string>) =>
    observation.apps.filter((a) => a.category && categories.has(a.category)).length;
  const { monthlyVisits, revenue, adSpendUsd, dropshipper, rating } = applyStoreModels({
    productCount,
    appCount,
    dropshippingAppCount: inCategory(DROPSHIPPING_CATEGORIES),
    dropshipTextSignals: observation.dropshipSignals,
    hasReviewsApp: inCategory(REVIEWS_CATEGORIES) > 0,
    hasSupportApp: inCategory(SUPPORT_CATEGORIES) > 0,
    hasContactEmail: observation.emails.length > 0,
    socialProfiles: Object.values(observation.socials).filter(Boolean).length,
    socialFollowers: context.socialFollowers,
    medianPriceUsd: context.medianPriceUsd,
    vertical: context.vertical,
    thirdPartyVisits: context.thirdParty?.visits ?? null,
    paidTrafficPct: context.thirdParty?.paidPct ?? null,
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
export function medianPriceUsd(
  prices: readonly number[],
  usdRate: number | undefined,
): number | null {
  if (prices.length === 0 || usdRate === undefined || !(usdRate > 0)) return null;
  const usd = prices.map((p) => p / usdRate).sort((a, b) => a - b);
  const mid = Math.floor(usd.length / 2);
  const median = usd.length % 2 ? usd[mid]! : (usd[mid - 1]! + usd[mid]!) / 2;
  return Math.round(median * 100) / 100;
}
