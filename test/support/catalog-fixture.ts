// A small, known catalog for GraphQL and REST tests: 12 stores in 3 countries (US, GB, DE) and
// 3 verticals (Apparel, Beauty, Home), with hand-picked figures so every expected value below can
// be checked with pencil and paper. Revenue highs and visits are all distinct, so each sort has
// exactly one right order. Load it into a fresh test database with loadCatalogFixture(pool).
import type { LegacyStore, LegacySummary } from '../../src/platform/legacy/port.ts';
import {
  createPostgresLegacyStore,
  type Queryable,
} from '../../src/platform/legacy/postgres-jsonb-adapter.ts';
import type { ChangeFacts } from '../../src/change-feed/change.sql.ts';
import { ensureMonthRange } from '../../src/platform/database/month-partitions.ts';

export interface FixtureStore {
  domain: string;
  name: string;
  countryCode: string;
  vertical: string;
  industry: string;
  category: string;
  currency: string;
  monthlyVisits: number;
  revenueLowUsd: number;
  revenueHighUsd: number;
  serviceRating: number;
  serviceGrade: string;
  isDropshipper: boolean;
  dropshipperScore: number;
  adSpendUsd: number;
  visitsChangePct: number | null;
  revenueChangePct: number | null;
  productCount: number;
  appCount: number;
  socialFollowers: number;
  medianPriceUsd: number | null;
  firstSeenAt: string;
  legacyId: string | null;
}

const store = (
  s: Omit<
    FixtureStore,
    'currency' | 'legacyId' | 'productCount' | 'appCount' | 'socialFollowers' | 'medianPriceUsd'
  > &
    Partial<FixtureStore>,
): FixtureStore => ({
  currency: 'USD',
  legacyId: null,
  productCount: 0,
  appCount: 0,
  socialFollowers: 0,
  medianPriceUsd: null,
  ...s,
});

export const FIXTURE_STORES: FixtureStore[] = [
  store({
    domain: 'acme-apparel.com',
    name: 'Acme Apparel',
    countryCode: 'US',
    vertical: 'Apparel',
    industry: 'Fashion',
    category: 'Clothing',
    monthlyVisits: 120_000,
    revenueLowUsd: 50_000,
    revenueHighUsd: 80_000,
    serviceRating: 88,
    serviceGrade: 'A',
    isDropshipper: false,
    dropshipperScore: 0.05,
    adSpendUsd: 5_000,
    visitsChangePct: 25,
    revenueChangePct: 20,
    productCount: 3,
    appCount: 3,
    socialFollowers: 15_000,
    medianPriceUsd: 25,
    firstSeenAt: '2024-01-10T00:00:00.000Z',
    legacyId: 'a0a0a0a0a0a0a0a0a0a0a001',
  }),
  store({
    domain: 'urban-threads.com',
    name: 'Urban Threads',
    countryCode: 'US',
    vertical: 'Apparel',
    industry: 'Fashion',
    category: 'Streetwear',
    monthlyVisits: 60_000,
    revenueLowUsd: 20_000,
    revenueHighUsd: 40_000,
    serviceRating: 72,
    serviceGrade: 'B',
    isDropshipper: false,
    dropshipperScore: 0.1,
    adSpendUsd: 2_000,
    visitsChangePct: -10,
    revenueChangePct: -5,
    firstSeenAt: '2024-02-01T00:00:00.000Z',
  }),
  store({
    domain: 'glow-skin.com',
    name: 'Glow Skin',
    countryCode: 'US',
    vertical: 'Beauty',
    industry: 'Health & Beauty',
    category: 'Skincare',
    monthlyVisits: 90_000,
    revenueLowUsd: 30_000,
    revenueHighUsd: 60_000,
    serviceRating: 80,
    serviceGrade: 'B',
    isDropshipper: false,
    dropshipperScore: 0.08,
    adSpendUsd: 4_000,
    visitsChangePct: 40,
    revenueChangePct: 35,
    productCount: 2,
    appCount: 2,
    firstSeenAt: '2024-03-15T00:00:00.000Z',
    legacyId: 'a0a0a0a0a0a0a0a0a0a0a003',
  }),
  store({
    domain: 'cozy-nest.com',
    name: 'Cozy Nest',
    countryCode: 'US',
    vertical: 'Home',
    industry: 'Home & Garden',
    category: 'Decor',
    monthlyVisits: 30_000,
    revenueLowUsd: 10_000,
    revenueHighUsd: 20_000,
    serviceRating: 60,
    serviceGrade: 'C',
    isDropshipper: false,
    dropshipperScore: 0.12,
    adSpendUsd: 800,
    visitsChangePct: null,
    revenueChangePct: null,
    firstSeenAt: '2024-04-01T00:00:00.000Z',
  }),
  store({
    domain: 'dropfast.shop',
    name: 'DropFast',
    countryCode: 'US',
    vertical: 'Home',
    industry: 'Home & Garden',
    category: 'Gadgets',
    monthlyVisits: 15_000,
    revenueLowUsd: 4_000,
    revenueHighUsd: 8_000,
    serviceRating: 35,
    serviceGrade: 'F',
    isDropshipper: true,
    dropshipperScore: 0.82,
    adSpendUsd: 3_000,
    visitsChangePct: 60,
    revenueChangePct: 50,
    productCount: 2,
    appCount: 1,
    firstSeenAt: '2025-06-01T00:00:00.000Z',
    legacyId: 'a0a0a0a0a0a0a0a0a0a0a005',
  }),
  store({
    domain: 'bella-beauty.co.uk',
    name: 'Bella Beauty',
    countryCode: 'GB',
    vertical: 'Beauty',
    industry: 'Health & Beauty',
    category: 'Makeup',
    monthlyVisits: 80_000,
    revenueLowUsd: 40_000,
    revenueHighUsd: 70_000,
    serviceRating: 78,
    serviceGrade: 'B',
    isDropshipper: false,
    dropshipperScore: 0.07,
    adSpendUsd: 3_500,
    visitsChangePct: 5,
    revenueChangePct: 8,
    appCount: 1,
    currency: 'GBP',
    firstSeenAt: '2024-05-01T00:00:00.000Z',
    legacyId: 'a0a0a0a0a0a0a0a0a0a0a006',
  }),
  store({
    domain: 'london-linen.co.uk',
    name: 'London Linen',
    countryCode: 'GB',
    vertical: 'Home',
    industry: 'Home & Garden',
    category: 'Bedding',
    monthlyVisits: 25_000,
    revenueLowUsd: 8_000,
    revenueHighUsd: 16_000,
    serviceRating: 66,
    serviceGrade: 'C',
    isDropshipper: false,
    dropshipperScore: 0.1,
    adSpendUsd: 600,
    visitsChangePct: -20,
    revenueChangePct: -25,
    currency: 'GBP',
    firstSeenAt: '2024-06-01T00:00:00.000Z',
  }),
  store({
    domain: 'tartan-tees.co.uk',
    name: 'Tartan Tees',
    countryCode: 'GB',
    vertical: 'Apparel',
    industry: 'Fashion',
    category: 'Clothing',
    monthlyVisits: 40_000,
    revenueLowUsd: 15_000,
    revenueHighUsd: 30_000,
    serviceRating: 70,
    serviceGrade: 'B',
    isDropshipper: false,
    dropshipperScore: 0.2,
    adSpendUsd: 1_200,
    visitsChangePct: null,
    revenueChangePct: null,
    currency: 'GBP',
    firstSeenAt: '2024-07-01T00:00:00.000Z',
  }),
  store({
    domain: 'quickship-uk.com',
    name: 'QuickShip UK',
    countryCode: 'GB',
    vertical: 'Beauty',
    industry: 'Health & Beauty',
    category: 'Skincare',
    monthlyVisits: 10_000,
    revenueLowUsd: 2_000,
    revenueHighUsd: 5_000,
    serviceRating: 30,
    serviceGrade: 'F',
    isDropshipper: true,
    dropshipperScore: 0.91,
    adSpendUsd: 2_500,
    visitsChangePct: -35,
    revenueChangePct: -40,
    appCount: 1,
    firstSeenAt: '2025-08-01T00:00:00.000Z',
  }),
  store({
    domain: 'berlin-boots.de',
    name: 'Berlin Boots',
    countryCode: 'DE',
    vertical: 'Apparel',
    industry: 'Fashion',
    category: 'Footwear',
    monthlyVisits: 70_000,
    revenueLowUsd: 25_000,
    revenueHighUsd: 50_000,
    serviceRating: 84,
    serviceGrade: 'B',
    isDropshipper: false,
    dropshipperScore: 0.03,
    adSpendUsd: 2_800,
    visitsChangePct: 15,
    revenueChangePct: 10,
    productCount: 2,
    appCount: 2,
    currency: 'EUR',
    firstSeenAt: '2024-08-01T00:00:00.000Z',
  }),
  store({
    domain: 'haus-und-heim.de',
    name: 'Haus und Heim',
    countryCode: 'DE',
    vertical: 'Home',
    industry: 'Home & Garden',
    category: 'Decor',
    monthlyVisits: 35_000,
    revenueLowUsd: 12_000,
    revenueHighUsd: 24_000,
    serviceRating: 64,
    serviceGrade: 'C',
    isDropshipper: false,
    dropshipperScore: 0.09,
    adSpendUsd: 900,
    visitsChangePct: -5,
    revenueChangePct: null,
    currency: 'EUR',
    firstSeenAt: '2024-09-01T00:00:00.000Z',
  }),
  store({
    domain: 'schoen-kosmetik.de',
    name: 'Schoen Kosmetik',
    countryCode: 'DE',
    vertical: 'Beauty',
    industry: 'Health & Beauty',
    category: 'Makeup',
    monthlyVisits: 20_000,
    revenueLowUsd: 5_000,
    revenueHighUsd: 10_000,
    serviceRating: 58,
    serviceGrade: 'C',
    isDropshipper: false,
    dropshipperScore: 0.15,
    adSpendUsd: 700,
    visitsChangePct: 8,
    revenueChangePct: 12,
    currency: 'EUR',
    firstSeenAt: '2024-10-01T00:00:00.000Z',
  }),
];

export interface FixtureTraffic {
  domain: string;
  month: string;
  visits: number;
  organicPct: number;
  paidPct: number;
  socialPct: number;
  directPct: number;
  referralPct: number;
  source: string;
}

/** Third-party traffic for 4 stores; the others have no coverage (traffic.latest = null). */
export const FIXTURE_TRAFFIC: FixtureTraffic[] = [
  {
    domain: 'acme-apparel.com',
    month: '2025-10-01',
    visits: 100_000,
    organicPct: 50,
    paidPct: 15,
    socialPct: 15,
    directPct: 15,
    referralPct: 5,
    source: 'similarweb',
  },
  {
    domain: 'acme-apparel.com',
    month: '2025-11-01',
    visits: 110_000,
    organicPct: 48,
    paidPct: 18,
    socialPct: 14,
    directPct: 15,
    referralPct: 5,
    source: 'similarweb',
  },
  {
    domain: 'acme-apparel.com',
    month: '2025-12-01',
    visits: 120_000,
    organicPct: 45,
    paidPct: 20,
    socialPct: 15,
    directPct: 15,
    referralPct: 5,
    source: 'similarweb',
  },
  {
    domain: 'glow-skin.com',
    month: '2025-12-01',
    visits: 90_000,
    organicPct: 30,
    paidPct: 30,
    socialPct: 25,
    directPct: 10,
    referralPct: 5,
    source: 'similarweb',
  },
  {
    domain: 'bella-beauty.co.uk',
    month: '2025-11-01',
    visits: 75_000,
    organicPct: 40,
    paidPct: 20,
    socialPct: 20,
    directPct: 15,
    referralPct: 5,
    source: 'semrush',
  },
  {
    domain: 'bella-beauty.co.uk',
    month: '2025-12-01',
    visits: 80_000,
    organicPct: 42,
    paidPct: 18,
    socialPct: 20,
    directPct: 15,
    referralPct: 5,
    source: 'semrush',
  },
  {
    domain: 'berlin-boots.de',
    month: '2025-12-01',
    visits: 70_000,
    organicPct: 55,
    paidPct: 10,
    socialPct: 10,
    directPct: 20,
    referralPct: 5,
    source: 'similarweb',
  },
];

/** Daily snapshots of acme-apparel.com (newest last here; the API lists newest first). */
export const FIXTURE_HISTORY = [
  {
    domain: 'acme-apparel.com',
    day: '2025-12-29',
    monthlyVisits: 118_000,
    revenueLowUsd: 49_000,
    revenueHighUsd: 78_000,
    serviceRating: 87,
    productCount: 3,
  },
  {
    domain: 'acme-apparel.com',
    day: '2025-12-30',
    monthlyVisits: 119_000,
    revenueLowUsd: 49_500,
    revenueHighUsd: 79_000,
    serviceRating: 88,
    productCount: 3,
  },
  {
    domain: 'acme-apparel.com',
    day: '2025-12-31',
    monthlyVisits: 120_000,
    revenueLowUsd: 50_000,
    revenueHighUsd: 80_000,
    serviceRating: 88,
    productCount: 3,
  },
];

export interface FixtureProduct {
  domain: string;
  handle: string;
  title: string;
  price: number;
  currency: string | null;
  isBestSeller: boolean;
  bestSellerRank: number | null;
}

/** Inserted in this order, so product ids follow it. One EUR product line (berlin-boots.de). */
export const FIXTURE_PRODUCTS: FixtureProduct[] = [
  {
    domain: 'acme-apparel.com',
    handle: 'classic-hoodie',
    title: 'Classic Hoodie',
    price: 59,
    currency: null,
    isBestSeller: true,
    bestSellerRank: 1,
  },
  {
    domain: 'acme-apparel.com',
    handle: 'everyday-tee',
    title: 'Everyday Tee',
    price: 25,
    currency: null,
    isBestSeller: true,
    bestSellerRank: 2,
  },
  {
    domain: 'acme-apparel.com',
    handle: 'canvas-tote',
    title: 'Canvas Tote',
    price: 18,
    currency: null,
    isBestSeller: false,
    bestSellerRank: null,
  },
  {
    domain: 'glow-skin.com',
    handle: 'vitamin-c-serum',
    title: 'Vitamin C Serum',
    price: 34,
    currency: null,
    isBestSeller: true,
    bestSellerRank: 1,
  },
  {
    domain: 'glow-skin.com',
    handle: 'night-cream',
    title: 'Night Cream',
    price: 42,
    currency: null,
    isBestSeller: false,
    bestSellerRank: null,
  },
  {
    domain: 'berlin-boots.de',
    handle: 'chelsea-boot',
    title: 'Chelsea Boot',
    price: 149,
    currency: 'EUR',
    isBestSeller: true,
    bestSellerRank: 1,
  },
  {
    domain: 'berlin-boots.de',
    handle: 'boot-wax',
    title: 'Boot Wax',
    price: 12.5,
    currency: 'EUR',
    isBestSeller: false,
    bestSellerRank: null,
  },
  {
    domain: 'dropfast.shop',
    handle: 'led-strip-lights',
    title: 'LED Strip Lights',
    price: 19.99,
    currency: null,
    isBestSeller: true,
    bestSellerRank: 1,
  },
  {
    domain: 'dropfast.shop',
    handle: 'posture-corrector',
    title: 'Posture Corrector',
    price: 24.99,
    currency: null,
    isBestSeller: false,
    bestSellerRank: null,
  },
];

export interface FixtureChange extends ChangeFacts {
  domain: string;
  detectedAt: string;
}

export const FIXTURE_CHANGES: FixtureChange[] = [
  {
    domain: 'acme-apparel.com',
    entity: 'product',
    changeType: 'price_decrease',
    subject: 'classic-hoodie',
    summary: 'Classic Hoodie: 69.00 → 59.00',
    oldValue: '69.00',
    newValue: '59.00',
    changePct: -14.49,
    detectedAt: '2025-12-20T10:00:00.000Z',
  },
  {
    domain: 'acme-apparel.com',
    entity: 'product',
    changeType: 'new_sku',
    subject: 'canvas-tote',
    summary: 'New product: Canvas Tote',
    oldValue: null,
    newValue: '18.00',
    changePct: null,
    detectedAt: '2025-12-22T10:00:00.000Z',
  },
  {
    domain: 'glow-skin.com',
    entity: 'product',
    changeType: 'price_increase',
    subject: 'vitamin-c-serum',
    summary: 'Vitamin C Serum: 30.00 → 34.00',
    oldValue: '30.00',
    newValue: '34.00',
    changePct: 13.33,
    detectedAt: '2025-12-15T10:00:00.000Z',
  },
  {
    domain: 'dropfast.shop',
    entity: 'product',
    changeType: 'removed_sku',
    subject: 'fidget-cube',
    summary: 'Removed: Fidget Cube',
    oldValue: '9.99',
    newValue: null,
    changePct: null,
    detectedAt: '2025-12-28T10:00:00.000Z',
  },
  {
    domain: 'berlin-boots.de',
    entity: 'product',
    changeType: 'price_decrease',
    subject: 'boot-wax',
    summary: 'Boot Wax: 15.00 → 12.50',
    oldValue: '15.00',
    newValue: '12.50',
    changePct: -16.67,
    detectedAt: '2025-11-30T10:00:00.000Z',
  },
  {
    domain: 'acme-apparel.com',
    entity: 'app',
    changeType: 'app_installed',
    subject: 'klaviyo',
    summary: 'Installed Klaviyo',
    oldValue: null,
    newValue: 'klaviyo',
    changePct: null,
    detectedAt: '2025-12-10T10:00:00.000Z',
  },
  {
    domain: 'bella-beauty.co.uk',
    entity: 'store',
    changeType: 'theme_changed',
    subject: null,
    summary: 'Theme Dawn → Prestige',
    oldValue: 'Dawn',
    newValue: 'Prestige',
    changePct: null,
    detectedAt: '2025-12-05T10:00:00.000Z',
  },
  {
    domain: 'dropfast.shop',
    entity: 'product',
    changeType: 'price_decrease',
    subject: 'led-strip-lights',
    summary: 'LED Strip Lights: 24.99 → 19.99',
    oldValue: '24.99',
    newValue: '19.99',
    changePct: -20.01,
    detectedAt: '2025-12-26T10:00:00.000Z',
  },
];

export const FIXTURE_APPS = [
  {
    slug: 'klaviyo',
    name: 'Klaviyo: Email Marketing & SMS',
    developer: 'Klaviyo',
    category: 'Email marketing',
    rating: 4.6,
    reviewCount: 2400,
    installs: ['acme-apparel.com', 'glow-skin.com', 'bella-beauty.co.uk', 'berlin-boots.de'],
  },
  {
    slug: 'judgeme',
    name: 'Judge.me Product Reviews',
    developer: 'Judge.me',
    category: 'Reviews',
    rating: 5,
    reviewCount: 31_800,
    installs: ['acme-apparel.com', 'glow-skin.com'],
  },
  {
    slug: 'gorgias',
    name: 'Gorgias: Helpdesk & Live Chat',
    developer: 'Gorgias',
    category: 'Customer support',
    rating: 4.4,
    reviewCount: 600,
    installs: ['acme-apparel.com', 'berlin-boots.de'],
  },
  {
    slug: 'dsers',
    name: 'DSers AliExpress Dropshipping',
    developer: 'DSers',
    category: 'Dropshipping',
    rating: 4.7,
    reviewCount: 12_000,
    installs: ['dropfast.shop', 'quickship-uk.com'],
  },
];

export const FIXTURE_LEGACY_SUMMARIES: LegacySummary[] = [
  {
    domain: 'acme-apparel.com',
    legacyId: 'a0a0a0a0a0a0a0a0a0a0a001',
    screenshotUrl: 'https://shots.example/acme.png',
    socials: { instagram: 'https://instagram.com/acme', facebook: 'https://facebook.com/acme' },
    emails: ['hello@acme-apparel.com'],
  },
  {
    domain: 'glow-skin.com',
    legacyId: 'a0a0a0a0a0a0a0a0a0a0a003',
    screenshotUrl: 'https://shots.example/glow.png',
    socials: { tiktok: 'https://tiktok.com/@glowskin' },
    emails: [],
  },
  {
    domain: 'dropfast.shop',
    legacyId: 'a0a0a0a0a0a0a0a0a0a0a005',
    screenshotUrl: null,
    socials: {},
    emails: ['support@dropfast.shop'],
  },
  {
    domain: 'bella-beauty.co.uk',
    legacyId: 'a0a0a0a0a0a0a0a0a0a0a006',
    screenshotUrl: 'https://shots.example/bella.png',
    socials: { instagram: 'https://instagram.com/bellabeauty' },
    emails: ['hi@bella-beauty.co.uk', 'press@bella-beauty.co.uk'],
  },
];

const domains = (...d: string[]) => d;

/** Answers the tests assert, worked out by hand from the rows above. */
export const EXPECTED = {
  storeCount: 12,
  byRevenue: domains(
    'acme-apparel.com',
    'bella-beauty.co.uk',
    'glow-skin.com',
    'berlin-boots.de',
    'urban-threads.com',
    'tartan-tees.co.uk',
    'haus-und-heim.de',
    'cozy-nest.com',
    'london-linen.co.uk',
    'schoen-kosmetik.de',
    'dropfast.shop',
    'quickship-uk.com',
  ),
  byVisits: domains(
    'acme-apparel.com',
    'glow-skin.com',
    'bella-beauty.co.uk',
    'berlin-boots.de',
    'urban-threads.com',
    'tartan-tees.co.uk',
    'haus-und-heim.de',
    'cozy-nest.com',
    'london-linen.co.uk',
    'schoen-kosmetik.de',
    'dropfast.shop',
    'quickship-uk.com',
  ),
  byRating: domains(
    'acme-apparel.com',
    'berlin-boots.de',
    'glow-skin.com',
    'bella-beauty.co.uk',
    'urban-threads.com',
    'tartan-tees.co.uk',
    'london-linen.co.uk',
    'haus-und-heim.de',
    'cozy-nest.com',
    'schoen-kosmetik.de',
    'dropfast.shop',
    'quickship-uk.com',
  ),
  /** countryCode gb + minVisits 20000, by revenue */
  gbAtLeast20kVisits: domains('bella-beauty.co.uk', 'tartan-tees.co.uk', 'london-linen.co.uk'),
  dropshippersByRevenue: domains('dropfast.shop', 'quickship-uk.com'),
  /** groupBy country, median (default), sort stores (default) */
  countryGroups: [
    {
      key: 'US',
      stores: 5,
      medianRevenue: 40_000,
      medianVisits: 60_000,
      meanRevenue: 41_600,
      maxRevenue: 80_000,
      minRevenue: 8_000,
    },
    {
      key: 'GB',
      stores: 4,
      medianRevenue: 23_000,
      medianVisits: 32_500,
      meanRevenue: 30_250,
      maxRevenue: 70_000,
      minRevenue: 5_000,
    },
    {
      key: 'DE',
      stores: 3,
      medianRevenue: 24_000,
      medianVisits: 35_000,
      meanRevenue: 28_000,
      maxRevenue: 50_000,
      minRevenue: 10_000,
    },
  ],
  /** groupBy country, sort revenue (median) */
  countryKeysByMedianRevenue: ['US', 'DE', 'GB'],
  /** groupBy country + groupBy2 vertical, sort stores then key */
  countryVerticalKeys: [
    'GB / Beauty',
    'US / Apparel',
    'US / Home',
    'DE / Apparel',
    'DE / Beauty',
    'DE / Home',
    'GB / Apparel',
    'GB / Home',
    'US / Beauty',
  ],
  countryVerticalMedians: {
    'US / Apparel': 60_000,
    'US / Home': 14_000,
    'GB / Beauty': 37_500,
  } as Record<string, number>,
  verticalStats: [
    {
      vertical: 'Apparel',
      stores: 4,
      monthlyRevenueUsd: 200_000,
      monthlyVisits: 290_000,
      adSpendUsd: 11_000,
    },
    {
      vertical: 'Beauty',
      stores: 4,
      monthlyRevenueUsd: 145_000,
      monthlyVisits: 200_000,
      adSpendUsd: 10_700,
    },
    {
      vertical: 'Home',
      stores: 4,
      monthlyRevenueUsd: 68_000,
      monthlyVisits: 105_000,
      adSpendUsd: 5_300,
    },
  ],
  countryStats: [
    { countryCode: 'US', stores: 5, monthlyRevenueUsd: 208_000, monthlyVisits: 315_000 },
    { countryCode: 'GB', stores: 4, monthlyRevenueUsd: 121_000, monthlyVisits: 155_000 },
    { countryCode: 'DE', stores: 3, monthlyRevenueUsd: 84_000, monthlyVisits: 125_000 },
  ],
  beautyCountryStats: [
    { countryCode: 'GB', stores: 2, monthlyRevenueUsd: 75_000, monthlyVisits: 90_000 },
    { countryCode: 'US', stores: 1, monthlyRevenueUsd: 60_000, monthlyVisits: 90_000 },
    { countryCode: 'DE', stores: 1, monthlyRevenueUsd: 10_000, monthlyVisits: 20_000 },
  ],
  overview: {
    stores: 12,
    productsTracked: 9,
    appsTracked: 4,
    storesWithTraffic: 4,
    dropshippers: 2,
    averageMonthlyVisits: 595_000 / 12,
    averageRevenueHigh: 413_000 / 12,
    averageServiceRating: 785 / 12,
  },
  /** movers visits up, minPct 20: domain, changePct, current, previous */
  visitMoversUp20: [
    { domain: 'dropfast.shop', changePct: 60, current: 15_000, previous: 9_375 },
    { domain: 'glow-skin.com', changePct: 40, current: 90_000, previous: 64_286 },
    { domain: 'acme-apparel.com', changePct: 25, current: 120_000, previous: 96_000 },
  ],
  /** movers revenue down, minPct 10 */
  revenueMoversDown10: domains('quickship-uk.com', 'london-linen.co.uk'),
  /** products(isBestSeller: true): rank, then id */
  bestSellers: [
    'classic-hoodie',
    'vitamin-c-serum',
    'chelsea-boot',
    'led-strip-lights',
    'everyday-tee',
  ],
  /** products(priceMin 20, priceMax 40): cheapest first */
  priced20to40: ['posture-corrector', 'everyday-tee', 'vitamin-c-serum'],
  /** productChanges: newest first (subjects) */
  productChanges: [
    'fidget-cube',
    'led-strip-lights',
    'canvas-tote',
    'classic-hoodie',
    'vitamin-c-serum',
    'boot-wax',
  ],
  /** productChanges price_decrease with |change| >= 15 % */
  bigPriceDrops: ['led-strip-lights', 'boot-wax'],
  /** changes for acme-apparel.com, newest first (change types) */
  acmeChanges: ['new_sku', 'price_decrease', 'app_installed'],
  /** app klaviyo's stores by visits */
  klaviyoStores: domains(
    'acme-apparel.com',
    'glow-skin.com',
    'bella-beauty.co.uk',
    'berlin-boots.de',
  ),
  /** apps() by install count, then name */
  appsByInstalls: ['klaviyo', 'dsers', 'gorgias', 'judgeme'],
  /** acme-apparel.com's app stack, most installed first, then name */
  acmeApps: ['klaviyo', 'gorgias', 'judgeme'],
  sources: {
    'acme-apparel.com': [
      'postgres:stores',
      'postgres:legacy_store_summaries',
      'postgres:traffic_monthly',
    ],
    'dropfast.shop': ['postgres:stores', 'postgres:legacy_store_summaries'],
    'berlin-boots.de': ['postgres:stores', 'postgres:traffic_monthly'],
    'cozy-nest.com': ['postgres:stores'],
  } as Record<string, string[]>,
  /** acme-apparel.com's latest traffic mix (December 2025) as shares */
  acmeLatestTraffic: {
    month: '2025-12-01',
    organic: 0.45,
    paid: 0.2,
    social: 0.15,
    direct: 0.15,
    referral: 0.05,
    source: 'similarweb',
  },
};

export interface LoadedFixture {
  storeIds: Record<string, number>;
  productIds: Record<string, number>;
  appIds: Record<string, number>;
}

const json = (rows: unknown[]) => JSON.stringify(rows);

/**
 * Inserts the fixture. The legacy summaries go through the LegacyStore port: pass the store the
 * services use; without one, the JSONB adapter on `pool` (the embedded default) is used.
 */
export async function loadCatalogFixture(
  pool: Queryable,
  legacy?: LegacyStore,
): Promise<LoadedFixture> {
  const { rows: stores } = await pool.query<{ id: number; domain: string }>(
    `INSERT INTO stores (domain, name, country_code, vertical, industry, category, currency, monthly_visits, revenue_low_usd,
       revenue_high_usd, service_rating, service_grade, is_dropshipper, dropshipper_score, ad_spend_usd, visits_change_pct,
       revenue_change_pct, product_count, app_count, social_followers, median_price_usd, first_seen_at, legacy_id,
       conversion_low_pct, conversion_high_pct, average_order_value_usd)
     SELECT domain, name, "countryCode", vertical, industry, category, currency, "monthlyVisits", "revenueLowUsd", "revenueHighUsd",
       "serviceRating", "serviceGrade", "isDropshipper", "dropshipperScore", "adSpendUsd", "visitsChangePct", "revenueChangePct",
       "productCount", "appCount", "socialFollowers", "medianPriceUsd", "firstSeenAt", "legacyId", 1.2, 2.4, 50
     FROM jsonb_to_recordset($1::jsonb) AS x(domain text, name text, "countryCode" text, vertical text, industry text, category text,
       currency text, "monthlyVisits" int, "revenueLowUsd" int, "revenueHighUsd" int, "serviceRating" int, "serviceGrade" text,
       "isDropshipper" boolean, "dropshipperScore" float8, "adSpendUsd" int, "visitsChangePct" float8, "revenueChangePct" float8,
       "productCount" int, "appCount" int, "socialFollowers" int, "medianPriceUsd" float8, "firstSeenAt" timestamptz, "legacyId" text)
     RETURNING id, domain`,
    [json(FIXTURE_STORES)],
  );
  const storeIds = Object.fromEntries(stores.map((s) => [s.domain, s.id]));

  await pool.query(
    `INSERT INTO traffic_monthly (store_id, month, visits, organic_pct, paid_pct, social_pct, direct_pct, referral_pct, source)
     SELECT s.id, x.month, x.visits, x."organicPct", x."paidPct", x."socialPct", x."directPct", x."referralPct", x.source
     FROM jsonb_to_recordset($1::jsonb) AS x(domain text, month date, visits int, "organicPct" float8, "paidPct" float8,
       "socialPct" float8, "directPct" float8, "referralPct" float8, source text)
     JOIN stores s ON s.domain = x.domain`,
    [json(FIXTURE_TRAFFIC)],
  );
  // the history and the change records are partitioned by month: the fixture's months need theirs
  const dates = [
    ...FIXTURE_HISTORY.map((h) => `${h.day}T00:00:00Z`),
    ...FIXTURE_CHANGES.map((c) => c.detectedAt),
  ].sort();
  await ensureMonthRange(pool, new Date(dates[0]!), new Date(dates.at(-1)!));
  await pool.query(
    `INSERT INTO store_daily_snapshots (store_id, day, monthly_visits, revenue_low_usd, revenue_high_usd, service_rating, product_count)
     SELECT s.id, x.day, x."monthlyVisits", x."revenueLowUsd", x."revenueHighUsd", x."serviceRating", x."productCount"
     FROM jsonb_to_recordset($1::jsonb) AS x(domain text, day date, "monthlyVisits" int, "revenueLowUsd" int, "revenueHighUsd" int,
       "serviceRating" int, "productCount" int)
     JOIN stores s ON s.domain = x.domain`,
    [json(FIXTURE_HISTORY)],
  );
  const { rows: products } = await pool.query<{ id: number; handle: string }>(
    `INSERT INTO products (store_id, handle, title, price, currency, is_best_seller, best_seller_rank, updated_at)
     SELECT s.id, x.handle, x.title, x.price, x.currency, x."isBestSeller", x."bestSellerRank", '2025-12-31T00:00:00Z'
     FROM jsonb_to_recordset($1::jsonb) AS x(domain text, handle text, title text, price numeric, currency text,
       "isBestSeller" boolean, "bestSellerRank" int, ord int)
     JOIN stores s ON s.domain = x.domain ORDER BY x.ord
     RETURNING id, handle`,
    [json(FIXTURE_PRODUCTS.map((product, ord) => ({ ...product, ord })))],
  );
  await pool.query(
    `INSERT INTO change_records (store_id, entity, change_type, subject, summary, old_value, new_value, change_pct, detected_at)
     SELECT s.id, x.entity, x."changeType", x.subject, x.summary, x."oldValue", x."newValue", x."changePct", x."detectedAt"
     FROM jsonb_to_recordset($1::jsonb) AS x(domain text, entity text, "changeType" text, subject text, summary text,
       "oldValue" text, "newValue" text, "changePct" float8, "detectedAt" timestamptz)
     JOIN stores s ON s.domain = x.domain`,
    [json(FIXTURE_CHANGES)],
  );
  const { rows: apps } = await pool.query<{ id: number; slug: string }>(
    `INSERT INTO apps (slug, name, developer, category, rating, review_count, app_store_url, detection_patterns, install_count)
     SELECT x.slug, x.name, x.developer, x.category, x.rating, x."reviewCount", 'https://apps.shopify.com/' || x.slug, '{}',
       jsonb_array_length(x.installs)
     FROM jsonb_to_recordset($1::jsonb) AS x(slug text, name text, developer text, category text, rating float8,
       "reviewCount" int, installs jsonb)
     RETURNING id, slug`,
    [json(FIXTURE_APPS)],
  );
  await pool.query(
    `INSERT INTO store_apps (store_id, app_id)
     SELECT s.id, a.id FROM jsonb_to_recordset($1::jsonb) AS x(slug text, installs jsonb)
     JOIN apps a ON a.slug = x.slug
     CROSS JOIN LATERAL jsonb_array_elements_text(x.installs) AS i(domain)
     JOIN stores s ON s.domain = i.domain`,
    [json(FIXTURE_APPS)],
  );

  await (legacy ?? createPostgresLegacyStore({ pool })).upsertMany(FIXTURE_LEGACY_SUMMARIES);

  return {
    storeIds,
    productIds: Object.fromEntries(products.map((p) => [p.handle, p.id])),
    appIds: Object.fromEntries(apps.map((a) => [a.slug, a.id])),
  };
}
