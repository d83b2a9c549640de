// Every modeled figure of a store from its observed inputs, in the one order the models depend on
// each other: dropshipper class → visits → revenue band (with conversion band and order value) →
// ad spend → rating. The seed (synthetic observations) and the scraper (a storefront's real ones)
// both go through here, so a store's figures never depend on how it entered the catalog.
import { estimateAdSpend } from './ad-spend.ts';
import { classifyDropshipper, type DropshipperClass } from './dropshipper.ts';
import { rateStore, type Rating, type RatingInputs } from './rating.ts';
import { estimateRevenue, type RevenueEstimate } from './revenue.ts';
import { estimateVisits } from './visits.ts';

export interface StoreObservations {
  productCount: number;
  appCount: number;
  dropshippingAppCount: number;
  dropshipTextSignals: number;
  hasReviewsApp: boolean;
  hasSupportApp: boolean;
  hasContactEmail: boolean;
  socialProfiles: number;
  socialFollowers: number;
  medianPriceUsd: number | null;
  vertical: string | null;
  /** the third-party panel's monthly visits and paid share, when a panel covers the store */
  thirdPartyVisits: number | null;
  paidTrafficPct: number | null;
}

export interface StoreModelOutputs {
  monthlyVisits: number;
  revenue: RevenueEstimate;
  adSpendUsd: number;
  dropshipper: DropshipperClass;
  rating: Rating;
  /** the rating's inputs, for rating the store's past days the same way */
  ratingInputs: RatingInputs;
}

/** The modeled columns of a stores row, as both writers store them. */
export interface ModeledStoreColumns {
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

export function applyStoreModels(o: StoreObservations): StoreModelOutputs {
  const dropshipper = classifyDropshipper({
    dropshippingAppCount: o.dropshippingAppCount,
    dropshipTextSignals: o.dropshipTextSignals,
    productCount: o.productCount,
    medianPriceUsd: o.medianPriceUsd,
  });
  const { monthlyVisits } = estimateVisits({
    socialFollowers: o.socialFollowers,
    productCount: o.productCount,
    appCount: o.appCount,
    thirdPartyVisits: o.thirdPartyVisits,
  });
  const revenue = estimateRevenue({
    monthlyVisits,
    medianPriceUsd: o.medianPriceUsd,
    vertical: o.vertical,
  });
  const adSpendUsd = estimateAdSpend({
    monthlyVisits,
    paidTrafficPct: o.paidTrafficPct,
    isDropshipper: dropshipper.isDropshipper,
    averageOrderValueUsd: revenue.averageOrderValueUsd,
  });
  const ratingInputs: RatingInputs = {
    monthlyVisits,
    productCount: o.productCount,
    appCount: o.appCount,
    hasReviewsApp: o.hasReviewsApp,
    hasSupportApp: o.hasSupportApp,
    hasContactEmail: o.hasContactEmail,
    socialProfiles: o.socialProfiles,
    socialFollowers: o.socialFollowers,
    dropshipperScore: dropshipper.score,
  };
  return {
    monthlyVisits,
    revenue,
    adSpendUsd,
    dropshipper,
    rating: rateStore(ratingInputs),
    ratingInputs,
  };
}
