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
import { defineRoute, noQuery } from '../../route.ts';
import { AdsOverview, AdsProbe, SignalAdList } from '../../schemas/signals-ads.ts';
import { AD_NETWORKS } from '../../../src/signals/ads/ad-library.ts';
import { ADS_PROBE_COOLDOWN_MS } from '../../../src/signals/ads/ads-probe.ts';
import {
  DEFAULT_OVERVIEW_DAYS,
  LIFT_METHOD,
  MAX_OVERVIEW_DAYS,
} from '../../../src/signals/ads/ads-overview.ts';
import { UNLISTED } from '../../../src/seed/seeded-catalog.ts';
import { fromGraphqlEnum, toGraphqlEnum } from '../../../src/graphql/enums.ts';

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
