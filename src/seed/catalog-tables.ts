// The catalog tables the seed writes, their COPY column lists, and how a generated store becomes
// rows of each. Ids of products and change records are handed out here, in generation order, so
// the same seed gives the same ids.
import {
  BinaryCopyBuffer,
  postgresDate,
  putFieldCount,
  putInt2Field,
  putInt4Field,
} from './copy-binary.ts';
import { bool, CopyBuffer, copyText, NULL, numberOrNull, textOrNull } from './copy-text.ts';
import type { SeedContext } from './seed-context.ts';
import type { SeededStore } from './seeded-types.ts';

export const TRAFFIC_SOURCE = 'synthetic_panel';
/** field count, then store_id, day, visits, revenue low, revenue high (int4), rating (int2), products (int4) */
const SNAPSHOT_ROW_BYTES = 2 + 6 * 8 + 6;

export const CATALOG_COLUMNS = {
  stores: [
    'id',
    'domain',
    'name',
    'legacy_id',
    'country_code',
    'currency',
    'industry',
    'vertical',
    'category',
    'theme_name',
    'product_count',
    'best_seller_count',
    'app_count',
    'median_price_usd',
    'social_followers',
    'dropship_signals',
    'monthly_visits',
    'revenue_low_usd',
    'revenue_high_usd',
    'conversion_low_pct',
    'conversion_high_pct',
    'average_order_value_usd',
    'ad_spend_usd',
    'is_dropshipper',
    'dropshipper_score',
    'service_rating',
    'service_grade',
    'visits_change_pct',
    'revenue_change_pct',
    'first_seen_at',
    'last_scraped_at',
    'updated_at',
  ],
  products: [
    'id',
    'store_id',
    'handle',
    'title',
    'vendor',
    'product_type',
    'price',
    'compare_at_price',
    'currency',
    'is_best_seller',
    'best_seller_rank',
    'available',
    'variant_count',
    'image_url',
    'published_at',
    'updated_at',
  ],
  store_apps: ['store_id', 'app_id', 'first_seen_at', 'last_seen_at'],
  store_app_periods: [
    'id',
    'store_id',
    'app_id',
    'installed_at',
    'uninstalled_at',
    'seen_installing',
  ],
  store_daily_snapshots: [
    'store_id',
    'day',
    'monthly_visits',
    'revenue_low_usd',
    'revenue_high_usd',
    'service_rating',
    'product_count',
  ],
  traffic_monthly: [
    'store_id',
    'month',
    'visits',
    'organic_pct',
    'paid_pct',
    'social_pct',
    'direct_pct',
    'referral_pct',
    'source',
  ],
  change_records: [
    'id',
    'store_id',
    'entity',
    'change_type',
    'subject',
    'summary',
    'old_value',
    'new_value',
    'change_pct',
    'detected_at',
  ],
  legacy_store_summaries: ['domain', 'legacy_id', 'doc', 'updated_at'],
} as const;

export type CatalogTable = keyof typeof CATALOG_COLUMNS;
/** the tables that reference stores and are loaded with it (their keys and indexes may be rebuilt) */
export const STORE_CHILD_TABLES = [
  'products',
  'store_apps',
  'store_app_periods',
  'store_daily_snapshots',
  'traffic_monthly',
  'change_records',
] as const;

export interface IdCounters {
  nextProductId: number;
  nextChangeId: number;
  nextPeriodId: number;
}

/** One chunk of stores as COPY data per table: binary for the two big numeric tables, text elsewhere. */
export class CatalogChunk {
  readonly tables: {
    [T in CatalogTable]: T extends 'store_daily_snapshots' | 'traffic_monthly'
      ? BinaryCopyBuffer
      : CopyBuffer;
  };
  private readonly historyDays: number[];
  private readonly trafficMonths: Map<string, number>;

  constructor(
    ctx: SeedContext,
    private readonly ids: IdCounters,
    private readonly withLegacyTable: boolean,
  ) {
    this.tables = {
      stores: new CopyBuffer(),
      products: new CopyBuffer(),
      store_apps: new CopyBuffer(),
      store_app_periods: new CopyBuffer(),
      store_daily_snapshots: new BinaryCopyBuffer(),
      traffic_monthly: new BinaryCopyBuffer(),
      change_records: new CopyBuffer(),
      legacy_store_summaries: new CopyBuffer(),
    };
    this.historyDays = ctx.days.map(postgresDate);
    this.trafficMonths = new Map(ctx.months.map((m) => [m, postgresDate(m)]));
  }

  add(seeded: SeededStore): void {
    const s = seeded.store;
    const id = String(s.id);
    const t = this.tables;
    const lastSeen = s.lastScrapedAt;
    t.stores.row(
      [
        id,
        copyText(s.domain),
        copyText(s.name),
        s.legacyId,
        s.countryCode,
        s.currency,
        copyText(s.industry),
        copyText(s.vertical),
        copyText(s.category),
        copyText(s.themeName),
        s.productCount,
        s.bestSellerCount,
        s.appCount,
        s.medianPriceUsd,
        s.socialFollowers,
        s.dropshipSignals,
        s.monthlyVisits,
        s.revenueLowUsd,
        s.revenueHighUsd,
        s.conversionLowPct,
        s.conversionHighPct,
        numberOrNull(s.averageOrderValueUsd),
        s.adSpendUsd,
        bool(s.isDropshipper),
        s.dropshipperScore,
        s.serviceRating,
        s.serviceGrade,
        numberOrNull(s.visitsChangePct),
        numberOrNull(s.revenueChangePct),
        s.firstSeenAt,
        lastSeen,
        lastSeen,
      ].join('\t'),
    );
    const vendor = copyText(s.name);
    for (const p of seeded.products) {
      t.products.row(
        [
          this.ids.nextProductId++,
          id,
          copyText(p.handle),
          copyText(p.title),
          vendor,
          copyText(p.productType),
          p.price.toFixed(2),
          p.compareAtPrice === null ? NULL : p.compareAtPrice.toFixed(2),
          p.currency ?? NULL,
          bool(p.bestSellerRank !== null),
          numberOrNull(p.bestSellerRank),
          bool(p.available),
          p.variantCount,
          copyText(p.imageUrl),
          p.publishedAt,
          lastSeen,
        ].join('\t'),
      );
    }
    for (const i of seeded.installs)
      t.store_apps.row(`${id}\t${i.appId}\t${i.firstSeenAt}\t${lastSeen}`);
    for (const p of seeded.periods) {
      t.store_app_periods.row(
        `${this.ids.nextPeriodId++}\t${id}\t${p.app.id}\t${p.installedAt}\t${p.uninstalledAt ?? NULL}\t${bool(p.seenInstalling)}`,
      );
    }
    // the daily history is most of the data: its rows go straight into the buffer
    const h = seeded.history;
    const days = h.visits.length;
    const history = t.store_daily_snapshots;
    let pos = history.reserve(days * SNAPSHOT_ROW_BYTES);
    const buf = history.buffer;
    for (let d = 0; d < days; d++) {
      pos = putFieldCount(buf, pos, 7);
      pos = putInt4Field(buf, pos, s.id);
      pos = putInt4Field(buf, pos, this.historyDays[d]!);
      pos = putInt4Field(buf, pos, h.visits[d]!);
      pos = putInt4Field(buf, pos, h.revenueLow[d]!);
      pos = putInt4Field(buf, pos, h.revenueHigh[d]!);
      pos = putInt2Field(buf, pos, h.rating[d]!);
      pos = putInt4Field(buf, pos, h.productCount[d]!);
    }
    history.wrote(pos, days);
    if (seeded.traffic) {
      for (const m of seeded.traffic) {
        t.traffic_monthly
          .row(9)
          .int4(s.id)
          .date(this.trafficMonths.get(m.month)!)
          .int4(m.visits)
          .float8(m.organicPct)
          .float8(m.paidPct)
          .float8(m.socialPct)
          .float8(m.directPct)
          .float8(m.referralPct)
          .text(TRAFFIC_SOURCE);
      }
    }
    for (const c of seeded.changes) {
      t.change_records.row(
        [
          this.ids.nextChangeId++,
          id,
          c.entity,
          c.changeType,
          textOrNull(c.subject),
          copyText(c.summary),
          textOrNull(c.oldValue),
          textOrNull(c.newValue),
          numberOrNull(c.changePct),
          c.detectedAt,
        ].join('\t'),
      );
    }
    if (this.withLegacyTable) {
      t.legacy_store_summaries.row(
        `${copyText(s.domain)}\t${s.legacyId}\t${copyText(JSON.stringify(seeded.legacy))}\t${seeded.legacy.lastCrawledAt ?? lastSeen}`,
      );
    }
  }
}
