// The rows one synthetic store contributes to each table, before they are encoded for COPY.
import type { CanonicalSummary } from '../platform/legacy/summary.ts';
import type { ChangeFacts } from '../change-feed/change.sql.ts';
import type { ModeledStoreColumns } from '../stores/model/apply-models.ts';

export interface SeededStoreRow extends ModeledStoreColumns {
  id: number;
  domain: string;
  name: string;
  legacyId: string;
  countryCode: string;
  currency: string;
  industry: string;
  vertical: string;
  category: string;
  themeName: string;
  productCount: number;
  bestSellerCount: number;
  appCount: number;
  medianPriceUsd: number;
  socialFollowers: number;
  dropshipSignals: number;
  visitsChangePct: number | null;
  revenueChangePct: number | null;
  firstSeenAt: string;
  lastScrapedAt: string;
}

export interface SeededProduct {
  handle: string;
  title: string;
  productType: string;
  /** in the product's currency (the store's) */
  price: number;
  compareAtPrice: number | null;
  /** null = USD */
  currency: string | null;
  bestSellerRank: number | null;
  available: boolean;
  variantCount: number;
  imageUrl: string;
  publishedAt: string;
}

export interface SeededInstall {
  appId: number;
  firstSeenAt: string;
}

/** One period a store was observed running an app (store_app_periods); uninstalled null while it runs. */
export interface SeededPeriod {
  app: { id: number; slug: string; name: string };
  installedMs: number;
  uninstalledMs: number | null;
  installedAt: string;
  uninstalledAt: string | null;
  /** false when the store already ran the app at its first observation */
  seenInstalling: boolean;
}

export interface SeededTrafficMonth {
  month: string;
  visits: number;
  organicPct: number;
  paidPct: number;
  socialPct: number;
  directPct: number;
  referralPct: number;
}

/** Daily history, index i = day i of SeedContext.days; the last entry equals the store's current values. */
export interface SeededHistory {
  visits: Int32Array;
  revenueLow: Int32Array;
  revenueHigh: Int32Array;
  rating: Uint8Array;
  productCount: Int32Array;
}

export interface SeededChange extends ChangeFacts {
  detectedAt: string;
}

export interface SeededStore {
  store: SeededStoreRow;
  products: SeededProduct[];
  installs: SeededInstall[];
  /** every period of app use, the open ones matching installs */
  periods: SeededPeriod[];
  /** null when no third-party source covers the store */
  traffic: SeededTrafficMonth[] | null;
  history: SeededHistory;
  changes: SeededChange[];
  legacy: CanonicalSummary;
}
