// How raw SQL reads a store row: every column of `stores`, aliased to the Prisma model's field
// names, so a row from a hand-written query is the same StoreRecord a Prisma query returns.
import type { Store } from '../generated/prisma/client.ts';

export type StoreRecord = Store;

const COLUMN_OF: Record<keyof StoreRecord, string> = {
  id: 'id',
  domain: 'domain',
  name: 'name',
  legacyId: 'legacy_id',
  countryCode: 'country_code',
  currency: 'currency',
  industry: 'industry',
  vertical: 'vertical',
  category: 'category',
  themeName: 'theme_name',
  productCount: 'product_count',
  bestSellerCount: 'best_seller_count',
  appCount: 'app_count',
  medianPriceUsd: 'median_price_usd',
  socialFollowers: 'social_followers',
  dropshipSignals: 'dropship_signals',
  monthlyVisits: 'monthly_visits',
  revenueLowUsd: 'revenue_low_usd',
  revenueHighUsd: 'revenue_high_usd',
  conversionLowPct: 'conversion_low_pct',
  conversionHighPct: 'conversion_high_pct',
  averageOrderValueUsd: 'average_order_value_usd',
  adSpendUsd: 'ad_spend_usd',
  isDropshipper: 'is_dropshipper',
  dropshipperScore: 'dropshipper_score',
  serviceRating: 'service_rating',
  serviceGrade: 'service_grade',
  visitsChangePct: 'visits_change_pct',
  revenueChangePct: 'revenue_change_pct',
  firstSeenAt: 'first_seen_at',
  lastScrapedAt: 'last_scraped_at',
  updatedAt: 'updated_at',
};

/** `s.id AS "id", s.legacy_id AS "legacyId", ...` for a stores table aliased `alias`. */
export const storeColumns = (alias: string): string =>
  Object.entries(COLUMN_OF)
    .map(([field, column]) => `${alias}.${column} AS "${field}"`)
    .join(', ');
