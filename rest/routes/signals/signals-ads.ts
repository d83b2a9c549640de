// The ads routes of Signals: refresh the watched store's creatives from the ad libraries, list
// them, and set them beside the watch's estimated sales. Each runs its persisted operation
// (signals-ads-*.graphql beside this file); no daily bucket, only the per-minute rate and per-key
// ceiling.
import { z } from 'zod';
import {
  GetSignalAdsOverviewDocument,
  ListSignalAdsDocument,
  ProbeSignalAdsDocument,
} from '../../generated/operations.ts';
import { connectionArgs, listEnvelopeOf } from '../../pagination.ts';
import { enumParam, integerParam, paginationParams, textParam } from '../../params.ts';
import { defineRoute, noQuery, type RestRoute } from '../../route.ts';
import { DateTime, Day, listOf, orNull } from '../../shapes.ts';
import { AD_NETWORKS } from '../../../src/signals/ads/ad-library.ts';
import { ADS_PROBE_COOLDOWN_MS } from '../../../src/signals/ads/ads-probe.ts';
import {
  DEFAULT_OVERVIEW_DAYS,
  LIFT_METHOD,
  MAX_OVERVIEW_DAYS,
} from '../../../src/signals/ads/ads-overview.ts';
import { UNLISTED } from '../../../src/seed/seeded-catalog.ts';
import { fromGraphqlEnum, toGraphqlEnum } from '../../../src/graphql/enums.ts';

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

const watchPath = z.strictObject({
  domain: textParam(2048).meta({
    description:
      'The watched store: a bare domain (example.com), a URL-encoded full URL (https%3A%2F%2Fwww.example.com) or the legacy store-database id.',
    example: UNLISTED.store,
  }),
});

const SCOPE =
  "The watch must belong to the key's account (another account's watch is not_found); a partner key (signals:read) may read any domain already on Signals.";

export const probeSignalAds = defineRoute({
  operationId: 'probeSignalAds',
  method: 'POST',
  path: '/v1/signals/{domain}/ads/probe',
  tag: 'Signals',
  summary: "Refresh the watched store's ads from the Meta, TikTok and Google libraries",
  description:
    'Synchronous: every configured library (Meta Ad Library, TikTok Commercial Content Library, Google Ads Transparency ' +
    "Center) is asked for the creatives running now, in parallel, each within the server's outbound deadline, and the " +
    'answer has one result per network: `ok` with adsFound, newAds and endedAds; `not_configured` when the server has ' +
    'no base URL or token for it (no data is invented); `failed` with the error (a timeout or error of one network never ' +
    'fails the others or the call). Creatives are kept per store: new ones are added, ones a complete answer no longer ' +
    'lists become inactive. New creatives raise one `ad_new_campaign` insight per network for every watch of the store ' +
    "(on a network's first answer for a store, only creatives first shown in the last 7 days count as new campaigns). " +
    `One call per watch every ${ADS_PROBE_COOLDOWN_MS / 60_000} minutes: sooner is rate_limited (429) with Retry-After and ` +
    '`details: {domain, cooldownSeconds, retryAfter}`. A partner key (signals:read) gets HTTP 403, code unauthorized, details.reason "scope". Another ' +
    "account's watch is not_found.",
  document: ProbeSignalAdsDocument,
  pathParams: watchPath,
  query: noQuery,
  canBeNotFound: true,
  extraErrors: ['scope'],
  variables: (p) => ({ domain: p.domain }),
  response: AdsProbe,
  respond: ({ probeSignalAds }) => ({
    ...probeSignalAds,
    networks: probeSignalAds.networks.map((n) => ({
      ...n,
      network: fromGraphqlEnum(n.network),
      status: fromGraphqlEnum(n.status),
    })),
  }),
  example: `/v1/signals/${UNLISTED.store}/ads/probe`,
});

export const listSignalAds = defineRoute({
  operationId: 'listSignalAds',
  method: 'GET',
  path: '/v1/signals/{domain}/ads',
  tag: 'Signals',
  summary: "The watched store's ad creatives",
  description:
    'Newest first (first seen, then id), active and ended alike (`active`), as the last POST .../ads/probe recorded ' +
    `them; \`network\` keeps one library's. ${SCOPE}`,
  document: ListSignalAdsDocument,
  pathParams: watchPath,
  query: z.strictObject({
    network: enumParam(AD_NETWORKS)
      .optional()
      .meta({ description: 'Only this network: meta, tiktok or google.' }),
    ...paginationParams(),
  }),
  canBeNotFound: true,
  variables: (p) => ({
    domain: p.domain,
    network: p.network && toGraphqlEnum(p.network),
    ...connectionArgs(p),
  }),
  response: SignalAdList,
  respond: (data, p) =>
    listEnvelopeOf(data.signal.ads, p, ({ adId, ...ad }) => ({
      id: adId,
      ...ad,
      network: fromGraphqlEnum(ad.network),
    })),
  example: `/v1/signals/${UNLISTED.store}/ads?network=meta&limit=20`,
});

export const getSignalAdsOverview = defineRoute({
  operationId: 'getSignalAdsOverview',
  method: 'GET',
  path: '/v1/signals/{domain}/ads/overview',
  tag: 'Signals',
  summary: 'Ads versus SKU sales lift, in one call',
  description:
    `For each of the last \`days\` days (UTC, today included): creatives running and launched per network, and the ` +
    "watch's estimated units and revenue (null for a day without an estimate); then the lift, an estimate. " +
    `Method: ${LIFT_METHOD} Before the watch has 2 inventory snapshots, \`lift\` is null and \`note\` says why. ${SCOPE}`,
  document: GetSignalAdsOverviewDocument,
  pathParams: watchPath,
  query: z.strictObject({
    days: integerParam({ min: 1, max: MAX_OVERVIEW_DAYS })
      .default(DEFAULT_OVERVIEW_DAYS)
      .meta({
        description: `Days back, today included: 1 to ${MAX_OVERVIEW_DAYS} (default ${DEFAULT_OVERVIEW_DAYS}).`,
      }),
  }),
  canBeNotFound: true,
  variables: (p) => ({ domain: p.domain, days: p.days }),
  response: AdsOverview,
  respond: (data) => ({
    domain: data.signal.domain,
    ...data.signal.adsOverview,
    isEstimate: true as const,
  }),
  example: `/v1/signals/${UNLISTED.store}/ads/overview?days=30`,
});

/** The Signals ads routes, in the order docs.md and the OpenAPI description list them. */
export const signalAdRoutes: readonly RestRoute[] = [
  probeSignalAds,
  listSignalAds,
  getSignalAdsOverview,
];
