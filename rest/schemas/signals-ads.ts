// Response bodies of the ads routes of Signals (POST /v1/signals/{domain}/ads/probe, GET
// /v1/signals/{domain}/ads and /ads/overview).
import { z } from 'zod';
import { DateTime, Day, listOf, orNull } from './common.ts';

const network = z.enum(['meta', 'tiktok', 'google']).meta({
  description:
    'meta: Meta Ad Library (Facebook, Instagram). tiktok: TikTok Commercial Content Library. google: Google Ads Transparency Center.',
});

export const SignalAd = z
  .strictObject({
    id: z.number().int().meta({ description: "The service's id of the creative." }),
    network,
    externalId: z.string().meta({
      description: "The library's id: Meta ad archive id, TikTok ad id or Google creative id.",
    }),
    headline: z.string().nullable(),
    body: z
      .string()
      .nullable()
      .meta({ description: 'The ad text, when the library gives it (TikTok does not).' }),
    mediaUrl: z
      .string()
      .nullable()
      .meta({ description: "Preview, snapshot, video or image URL on the library's side." }),
    landingUrl: z
      .string()
      .nullable()
      .meta({ description: 'Where the ad leads, when the library says (Meta: its display link).' }),
    firstSeenAt: DateTime.meta({
      description: "The library's first-shown time, or when this service first saw the creative.",
    }),
    lastSeenAt: DateTime.meta({ description: 'The last probe that found it running.' }),
    active: z
      .boolean()
      .meta({ description: 'Listed as running by the last complete answer of its library.' }),
  })
  .meta({
    id: 'SignalAd',
    description: 'An ad creative of the watched store, as a public ad library listed it.',
  });

export const SignalAdList = listOf(
  SignalAd,
  'SignalAdList',
  "The watched store's ad creatives, newest first.",
);

export const AdNetworkProbe = z
  .strictObject({
    network,
    status: z.enum(['ok', 'not_configured', 'failed']).meta({
      description:
        'ok: the library answered. not_configured: this server has no base URL or token for it (nothing is invented). failed: see error.',
    }),
    adsFound: z
      .number()
      .int()
      .meta({ description: 'Running creatives the library listed (0 unless ok).' }),
    newAds: z.number().int().meta({ description: 'Of those, creatives not on record before.' }),
    endedAds: z
      .number()
      .int()
      .meta({ description: 'Creatives on record that the library no longer lists, now inactive.' }),
    error: z
      .string()
      .nullable()
      .meta({ description: 'Why the network failed or is not configured; null when ok.' }),
  })
  .meta({ id: 'AdNetworkProbe' });

export const AdsProbe = z
  .strictObject({
    domain: z.string(),
    probedAt: DateTime,
    networks: z.array(AdNetworkProbe).meta({
      description:
        'One result per network: meta, tiktok, google. One failing never fails the others.',
    }),
    insightsCreated: z
      .number()
      .int()
      .meta({ description: 'ad_new_campaign insights written, across the watches of the store.' }),
  })
  .meta({ id: 'AdsProbe', description: 'The result of an ads refresh.' });

const counts = z
  .strictObject({
    meta: z.number().int(),
    tiktok: z.number().int(),
    google: z.number().int(),
    total: z.number().int(),
  })
  .meta({ id: 'AdNetworkCounts', description: 'Creatives per network, and their total.' });

const OverviewDay = z
  .strictObject({
    day: Day,
    activeAds: counts.meta({ description: 'Creatives running that day.' }),
    newAds: counts.meta({ description: 'Creatives first seen that day (launches).' }),
    afterLaunch: z
      .boolean()
      .meta({ description: 'A creative was first seen on this day or in the 6 days before.' }),
    units: z.number().int().nullable().meta({
      description: 'Estimated units sold; null when the watch has no estimate for the day.',
    }),
    revenue: z.number().nullable().meta({
      description: "Estimated revenue in the overview's currency; null when no estimate.",
    }),
    revenueUsd: z.number().nullable().meta({
      description:
        'The same revenue when the currency is USD; null otherwise (never converted) or when no estimate.',
    }),
  })
  .meta({ id: 'AdsOverviewDay' });

const SalesLift = z
  .strictObject({
    windowDays: z
      .number()
      .int()
      .meta({ description: 'A launch counts for this many days, its own included.' }),
    daysAfterLaunch: z
      .number()
      .int()
      .meta({ description: 'Days with a sales estimate after a launch.' }),
    otherDays: z
      .number()
      .int()
      .meta({ description: 'Days with a sales estimate and no launch in the window.' }),
    meanUnitsAfterLaunch: z.number().nullable(),
    meanUnitsOtherDays: z.number().nullable(),
    unitsLiftPercent: z
      .number()
      .nullable()
      .meta({ description: 'Null when a group is empty or the other days sold nothing.' }),
    meanRevenueAfterLaunch: z
      .number()
      .nullable()
      .meta({ description: "In the overview's currency." }),
    meanRevenueOtherDays: z
      .number()
      .nullable()
      .meta({ description: "In the overview's currency." }),
    meanRevenueAfterLaunchUsd: z
      .number()
      .nullable()
      .meta({ description: 'USD stores only; null otherwise.' }),
    meanRevenueOtherDaysUsd: z
      .number()
      .nullable()
      .meta({ description: 'USD stores only; null otherwise.' }),
    revenueLiftPercent: z.number().nullable(),
  })
  .meta({
    id: 'AdsSalesLift',
    description: 'Mean daily sales on days after an ad launch versus the other days. An estimate.',
  });

export const AdsOverview = z
  .strictObject({
    domain: z.string(),
    days: z.number().int(),
    from: Day,
    to: Day,
    isEstimate: z.literal(true).meta({ description: 'Sales and lift are modeled estimates.' }),
    snapshots: z
      .number()
      .int()
      .meta({ description: 'Inventory snapshots of the watch so far; sales need at least 2.' }),
    method: z.string().meta({ description: 'How the lift is computed.' }),
    note: z
      .string()
      .nullable()
      .meta({ description: 'Why sales or lift are missing, when they are.' }),
    currency: z
      .string()
      .meta({ description: "ISO 4217 currency of every revenue figure: the store's own." }),
    daily: z.array(OverviewDay).meta({ description: 'One entry per day, oldest first.' }),
    lift: orNull(SalesLift).meta({
      description: 'Null until the watch has 2 inventory snapshots.',
    }),
  })
  .meta({
    id: 'AdsOverview',
    description: 'Ads versus estimated SKU sales of a watch, in one call.',
  });
