// One synthetic store with everything it owns: products, app installs, 180 days of history,
// third-party traffic (covered stores only), change records and its legacy summary.
//
// The generator first draws the store's hidden truth (its real traffic, whether it dropships, how
// carefully it is run) and the observations that truth produces (followers, catalog, apps,
// storefront phrases, a third-party panel figure). Every modeled column is then computed from
// those observations by the model functions of src/stores/model, as a scrape of a real store would.
import type { CanonicalSummary } from '../platform/legacy/summary.ts';
import { percentChange } from '../stores/model/growth.ts';
import { applyStoreModels } from '../stores/model/apply-models.ts';
import { capitalize } from './names.ts';
import { hashSeed, Random } from './random.ts';
import { DAY_MS, type SeedContext } from './seed-context.ts';
import type { SeededChange, SeededStore } from './seeded-types.ts';
import { generateInstalls } from './store-apps.ts';
import { generateCatalog } from './store-catalog.ts';
import { dailyHistory, trafficMix, trafficSeries, trendSlope } from './store-series.ts';
import { StoreTimeline } from './store-timeline.ts';

/** share of stores that dropship, by industry (others: DEFAULT_DROPSHIP_SHARE) */
const DROPSHIP_SHARE: Readonly<Record<string, number>> = {
  Fashion: 0.12,
  'Home & Living': 0.12,
  Pets: 0.14,
  'Kids & Family': 0.11,
  'Sports & Outdoors': 0.1,
  'Electronics & Tech': 0.12,
  'Beauty & Wellness': 0.08,
};
const DEFAULT_DROPSHIP_SHARE = 0.04;
/** real monthly visits: log-normal, median 300, sigma 2.2 (most stores tiny, a few in the millions) */
const VISITS_MEDIAN = 300;
const VISITS_SIGMA = 2.2;
const MAX_VISITS = 30_000_000;
const SOCIAL_NETWORKS = [
  { network: 'instagram', chance: 0.6, url: 'https://instagram.com/' },
  { network: 'facebook', chance: 0.55, url: 'https://facebook.com/' },
  { network: 'tiktok', chance: 0.25, url: 'https://tiktok.com/@' },
  { network: 'twitter', chance: 0.12, url: 'https://x.com/' },
  { network: 'youtube', chance: 0.08, url: 'https://youtube.com/@' },
  { network: 'pinterest', chance: 0.15, url: 'https://pinterest.com/' },
] as const;
const INT32_MAX = 2_147_483_647;
const US_AREA_CODES = ['202', '212', '310', '415', '512', '617', '646', '702', '808', '917'];
const DROPSHIP_SIGNAL_COUNTS = [0, 1, 1, 2, 2, 2, 3, 3, 4, 4];
/** stores whose modeled revenue band moved at least this much in 30 days get a store-level change */
const REVENUE_CHANGE_RECORD_PCT = 30;

/** the store's second generator, for its app install history (store-apps.ts) */
const APP_HISTORY_STREAM = hashSeed('app-history');

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

export function generateStore(ctx: SeedContext, id: number): SeededStore {
  const rng = new Random(ctx.seed, id);
  const { vocabulary } = ctx.sampler.data;
  const country = ctx.sampler.countries.pick(rng);
  const vertical = ctx.sampler.verticals.pick(rng);
  const category = ctx.sampler.categories.get(vertical.slug)!.pick(rng);
  const words = vocabulary.verticals[vertical.slug]!;
  const { core, domain } = ctx.namer.forStore(id);
  const name = `${capitalize(core)} ${rng.pick(words.brandWords)}`;
  const timeline = new StoreTimeline(rng, ctx.todayMs);

  // the hidden truth
  const dropshipping = rng.chance(DROPSHIP_SHARE[vertical.industry] ?? DEFAULT_DROPSHIP_SHARE);
  const trueVisits = Math.min(MAX_VISITS, Math.round(rng.logNormal(VISITS_MEDIAN, VISITS_SIGMA)));
  const logVisits = Math.log10(1 + trueVisits);
  // how carefully the store is run, 0..1: careful operators install reviews and support apps,
  // keep social profiles and publish a contact address, so those observations go together
  const care = rng.next();

  // what a scrape observes
  const catalog = generateCatalog(rng, timeline, {
    id,
    vertical,
    category,
    country,
    dropshipping,
    words,
    nouns: vocabulary.categoryNouns[category.slug]!,
  });
  const productCount = catalog.products.length;
  const appetite = clamp(0.6 + 0.2 * logVisits, 0.6, 2.2) * (0.4 + 1.6 * care);
  const appHistory = new Random(ctx.seed, id, APP_HISTORY_STREAM);
  const stack = generateInstalls(rng, appHistory, ctx, timeline, dropshipping, appetite);
  const dropshipSignals = dropshipping
    ? rng.pick(DROPSHIP_SIGNAL_COUNTS)
    : rng.chance(0.06)
      ? 1
      : 0;
  const presence = clamp(0.5 + 0.12 * logVisits, 0.5, 1.3) * (0.6 + 0.8 * care);
  const socialHandle = rng.chance(0.5)
    ? core
    : `${core}${rng.pick(['shop', 'official', 'co', 'store'])}`;
  const socials: Record<string, string | null> = {};
  let socialProfiles = 0;
  for (const { network, chance, url } of SOCIAL_NETWORKS) {
    const has = rng.chance(Math.min(0.98, chance * presence));
    socials[network] = has ? url + socialHandle : null;
    if (has) socialProfiles++;
  }
  const socialFollowers =
    socialProfiles === 0
      ? 0
      : Math.min(
          INT32_MAX,
          Math.round(trueVisits * rng.logNormal(0.3, 0.9) * (0.6 + 0.2 * socialProfiles)),
        );
  const emails: string[] = [];
  if (rng.chance(0.75 + 0.25 * care))
    emails.push(`${rng.pick(['hello', 'support', 'info', 'contact', 'care'])}@${domain}`);
  if (emails.length > 0 && rng.chance(0.2))
    emails.push(`${rng.pick(['orders', 'wholesale', 'press'])}@${domain}`);
  const phones =
    (country.code === 'US' || country.code === 'CA') && rng.chance(0.3)
      ? [`+1 ${rng.pick(US_AREA_CODES)}-555-01${String(rng.int(0, 99)).padStart(2, '0')}`]
      : [];
  // a third-party panel covers bigger stores more often
  const covered = rng.chance(clamp(0.25 + 0.12 * (logVisits - 2), 0.1, 0.9));
  const thirdPartyVisits = covered ? Math.round(trueVisits * rng.logNormal(1, 0.15)) : null;
  const mix = covered ? trafficMix(rng, dropshipping) : null;

  // the models, applied to the observations
  const { monthlyVisits, revenue, adSpendUsd, dropshipper, rating, ratingInputs } =
    applyStoreModels({
      productCount,
      appCount: stack.installs.length,
      dropshippingAppCount: stack.dropshippingAppCount,
      dropshipTextSignals: dropshipSignals,
      hasReviewsApp: stack.apps.some((app) => app.isReviews),
      hasSupportApp: stack.apps.some((app) => app.isSupport),
      hasContactEmail: emails.length > 0,
      socialProfiles,
      socialFollowers,
      medianPriceUsd: catalog.medianPriceUsd,
      vertical: vertical.name,
      thirdPartyVisits,
      paidTrafficPct: mix ? mix.paidPct : null,
    });

  // history ending at the current values, and movers 30 days apart
  const trend = trendSlope(rng);
  const history = dailyHistory(rng, {
    trend,
    monthlyVisits,
    revenue,
    productCount,
    addedDays: catalog.addedDays,
    removedDays: catalog.removedDays,
    steadyRating: ratingInputs,
  });
  const today = history.visits.length - 1;
  const monthAgo = today - 30;
  const visitsChangePct = percentChange(history.visits[monthAgo]!, monthlyVisits);
  const revenueChangePct = percentChange(history.revenueHigh[monthAgo]!, revenue.high);
  const traffic =
    thirdPartyVisits === null || mix === null
      ? null
      : trafficSeries(rng, ctx.months, thirdPartyVisits, trend, mix);

  const changes: SeededChange[] = [...catalog.changes, ...stack.changes];
  const themeName = rng.chance(0.3) ? 'Dawn' : rng.pick(vocabulary.themes);
  if (rng.chance(0.04)) {
    let previous = rng.pick(vocabulary.themes);
    if (previous === themeName) previous = themeName === 'Debut' ? 'Brooklyn' : 'Debut';
    changes.push({
      entity: 'store',
      changeType: 'theme_changed',
      subject: null,
      summary: `Theme changed from ${previous} to ${themeName}`,
      oldValue: previous,
      newValue: themeName,
      changePct: null,
      detectedAt: timeline.iso(timeline.recent()),
    });
  }
  if (revenueChangePct !== null && Math.abs(revenueChangePct) >= REVENUE_CHANGE_RECORD_PCT) {
    const before = `${history.revenueLow[monthAgo]}-${history.revenueHigh[monthAgo]}`;
    const after = `${revenue.low}-${revenue.high}`;
    changes.push({
      entity: 'store',
      changeType: 'revenue_band_changed',
      subject: null,
      summary: `Modeled revenue band ${revenueChangePct > 0 ? 'rose' : 'fell'} ${Math.abs(revenueChangePct).toFixed(1)}% in 30 days (${before} to ${after} USD/month)`,
      oldValue: before,
      newValue: after,
      changePct: revenueChangePct,
      detectedAt: timeline.iso(timeline.lastScrapedMs),
    });
  }

  // like a MongoDB ObjectId: creation seconds, random bytes, then the store id (unique)
  const legacyId = `${Math.floor(timeline.firstSeenMs / 1000)
    .toString(16)
    .padStart(8, '0')}${rng.hex8()}${id.toString(16).padStart(8, '0')}`;
  const legacy: CanonicalSummary = {
    domain,
    legacyId,
    title: name,
    description: `${name} sells ${category.name.toLowerCase()} (${country.name}).`,
    // no screenshot was ever taken of a synthetic store: a URL here would name an image nobody serves
    // (GET /v1/stores/{domain}/screenshot answers 404 for it); a scrape with Chromium sets its own
    screenshotUrl: null,
    socials: {
      instagram: socials.instagram ?? null,
      facebook: socials.facebook ?? null,
      tiktok: socials.tiktok ?? null,
      twitter: socials.twitter ?? null,
      youtube: socials.youtube ?? null,
      pinterest: socials.pinterest ?? null,
    },
    emails,
    phones,
    lastCrawledAt: timeline.iso(timeline.lastScrapedMs - Math.floor(rng.next() * 21 * DAY_MS)),
  };

  return {
    store: {
      id,
      domain,
      name,
      legacyId,
      countryCode: country.code,
      currency: country.currency,
      industry: vertical.industry,
      vertical: vertical.name,
      category: category.name,
      themeName,
      productCount,
      bestSellerCount: catalog.bestSellerCount,
      appCount: stack.installs.length,
      medianPriceUsd: catalog.medianPriceUsd,
      socialFollowers,
      dropshipSignals,
      monthlyVisits: Math.min(INT32_MAX, monthlyVisits),
      revenueLowUsd: Math.min(INT32_MAX, revenue.low),
      revenueHighUsd: Math.min(INT32_MAX, revenue.high),
      conversionLowPct: revenue.conversionLowPct,
      conversionHighPct: revenue.conversionHighPct,
      averageOrderValueUsd: revenue.averageOrderValueUsd,
      adSpendUsd: Math.min(INT32_MAX, adSpendUsd),
      isDropshipper: dropshipper.isDropshipper,
      dropshipperScore: dropshipper.score,
      serviceRating: rating.rating,
      serviceGrade: rating.grade,
      visitsChangePct,
      revenueChangePct,
      firstSeenAt: timeline.iso(timeline.firstSeenMs),
      lastScrapedAt: timeline.iso(timeline.lastScrapedMs),
    },
    products: catalog.products,
    installs: stack.installs,
    periods: stack.periods,
    traffic,
    history,
    changes,
    legacy,
  };
}
