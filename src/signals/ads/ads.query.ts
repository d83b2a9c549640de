// The ads part of Signals in the GraphQL schema: Signal.ads (the store's creatives, newest first),
// Signal.adsOverview(days) (ads versus estimated sales) and Mutation.probeSignalAds(id) (refresh
// from the Meta, TikTok and Google ad libraries). REST: rest/routes/signals-ads.ts.
import { builder } from '../../graphql/builder.ts';
import { upperCaseValues } from '../../graphql/enums.ts';
import { pageArgs } from '../../graphql/page-args.ts';
import { offsetConnection } from '../../graphql/pagination.ts';
import { SignalRef } from '../signal.ref.ts';
import { AD_NETWORKS } from './ad-library.ts';
import {
  adCreativesByIds,
  adCreativesPage,
  countAdCreatives,
  type AdCreative,
} from './ad-creatives.ts';
import type { NetworkCounts } from './ads-lift.ts';
import {
  adsOverview,
  DEFAULT_OVERVIEW_DAYS,
  MAX_OVERVIEW_DAYS,
  type AdsOverview,
  type OverviewDayInCurrency,
  type SalesLiftInCurrency,
} from './ads-overview.ts';
import {
  ADS_PROBE_COOLDOWN_MS,
  probeSignalAds,
  type AdsProbeResult,
  type NetworkProbeResult,
} from './ads-probe.ts';

const AdNetworkEnum = builder.enumType('AdNetwork', {
  description:
    'META: Meta Ad Library (Facebook, Instagram). TIKTOK: TikTok Commercial Content Library. GOOGLE: Google Ads Transparency Center. REST spells each in lower case.',
  values: upperCaseValues(AD_NETWORKS, {
    meta: 'Meta Ad Library: Facebook and Instagram ads.',
    tiktok: 'TikTok Commercial Content Library.',
    google: 'Google Ads Transparency Center.',
  }),
});

const SignalAdRef = builder.objectRef<AdCreative>('SignalAd');

builder.node(SignalAdRef, {
  description: 'An ad creative of the watched store, as a public ad library listed it.',
  id: { resolve: (a) => a.id, parse: (id) => Number(id) },
  loadMany: (ids, ctx) => adCreativesByIds(ctx, ids),
  fields: (t) => ({
    adId: t.exposeInt('id', {
      description:
        "The service's own number of the creative, as REST's `id` shows it (id is the global Node id).",
    }),
    network: t.field({
      type: AdNetworkEnum,
      description: 'The ad library that listed the creative.',
      resolve: (a) => a.network,
    }),
    externalId: t.exposeString('externalId', {
      description: "The library's id (Meta ad archive id, TikTok ad id, Google creative id).",
    }),
    headline: t.exposeString('headline', {
      nullable: true,
      description: "The ad's headline or title; null when the library gives none.",
    }),
    body: t.exposeString('body', {
      nullable: true,
      description: 'The ad text, when the library gives it (TikTok does not).',
    }),
    mediaUrl: t.exposeString('mediaUrl', {
      nullable: true,
      description: "Preview, snapshot, video or image URL on the library's side.",
    }),
    landingUrl: t.exposeString('landingUrl', {
      nullable: true,
      description: 'Where the ad leads, when the library says (Meta: its display link).',
    }),
    firstSeenAt: t.expose('firstSeenAt', {
      type: 'DateTime',
      description: "The library's first-shown time, or when this service first saw the creative.",
    }),
    lastSeenAt: t.expose('lastSeenAt', {
      type: 'DateTime',
      description: 'The last probe that found it running.',
    }),
    active: t.exposeBoolean('active', {
      description: 'Listed as running by the last complete answer of its library.',
    }),
  }),
});

const SignalAdConnection = builder.connectionObject(
  {
    type: SignalAdRef,
    name: 'SignalAdConnection',
    description: "A page of the watched store's ad creatives.",
  },
  { name: 'SignalAdEdge', description: 'One ad creative, with its cursor.' },
);

builder.objectFields(SignalRef, (t) => ({
  ads: t.field({
    type: SignalAdConnection,
    description:
      "The store's ad creatives on record, newest first (first seen, then id); probeSignalAds refreshes them.",
    args: {
      ...pageArgs,
      network: t.arg({ type: AdNetworkEnum, description: 'Only this network.' }),
    },
    resolve: (watch, args, ctx) => {
      const pool = ctx.services.db.pool;
      const network = args.network ?? null;
      return offsetConnection(
        args,
        (window) => adCreativesPage(pool, watch.storeId, network, window),
        async () => ({ total: await countAdCreatives(pool, watch.storeId, network), exact: true }),
      );
    },
  }),
  adsOverview: t.field({
    type: AdsOverviewRef,
    description:
      'Ads versus the estimated SKU sales of the watch over the last `days` days (UTC, today included), with the lift after ad launches. An estimate; method in `method`.',
    args: {
      days: t.arg.int({
        defaultValue: DEFAULT_OVERVIEW_DAYS,
        description: `Days back, today included: 1 to ${MAX_OVERVIEW_DAYS} (default ${DEFAULT_OVERVIEW_DAYS}).`,
        validate: {
          type: 'number',
          int: true,
          min: [1, { message: 'must be at least 1' }],
          max: [MAX_OVERVIEW_DAYS, { message: `must be at most ${MAX_OVERVIEW_DAYS}` }],
        },
      }),
    },
    resolve: (watch, args, ctx) =>
      adsOverview(
        ctx.services.db.pool,
        watch,
        args.days ?? DEFAULT_OVERVIEW_DAYS,
        ctx.services.clock?.() ?? new Date(),
      ),
  }),
}));

const NetworkCountsRef = builder.objectRef<NetworkCounts>('AdNetworkCounts').implement({
  description: 'Creatives per network, and their total.',
  fields: (t) => ({
    meta: t.exposeInt('meta', { description: 'Creatives from the Meta Ad Library.' }),
    tiktok: t.exposeInt('tiktok', { description: 'Creatives from the TikTok library.' }),
    google: t.exposeInt('google', {
      description: 'Creatives from the Google Ads Transparency Center.',
    }),
    total: t.exposeInt('total', { description: 'meta + tiktok + google.' }),
  }),
});

const OverviewDayRef = builder.objectRef<OverviewDayInCurrency>('AdsOverviewDay').implement({
  description: "One UTC day of the overview: the store's ads and its estimated sales.",
  fields: (t) => ({
    day: t.field({ type: 'Date', description: 'The UTC day.', resolve: (d) => d.day }),
    activeAds: t.field({
      type: NetworkCountsRef,
      description: 'Creatives running that day.',
      resolve: (d) => d.activeAds,
    }),
    newAds: t.field({
      type: NetworkCountsRef,
      description: 'Creatives first seen that day (launches).',
      resolve: (d) => d.newAds,
    }),
    afterLaunch: t.exposeBoolean('afterLaunch', {
      description: 'A creative was first seen on this day or in the 6 days before.',
    }),
    units: t.exposeInt('units', {
      nullable: true,
      description: 'Estimated units sold; null when the watch has no estimate for the day.',
    }),
    revenue: t.exposeFloat('revenue', {
      nullable: true,
      description: "Estimated revenue in the overview's currency; null when no estimate.",
    }),
    revenueUsd: t.exposeFloat('revenueUsd', {
      nullable: true,
      description:
        'The same revenue when the currency is USD; null otherwise (never converted) or when no estimate.',
    }),
  }),
});

const SalesLiftRef = builder.objectRef<SalesLiftInCurrency>('AdsSalesLift').implement({
  description:
    'Mean daily sales on days after an ad launch versus the other days. An estimate (see AdsOverview.method).',
  fields: (t) => ({
    windowDays: t.exposeInt('windowDays', {
      description: 'A launch counts for this many days, its own included.',
    }),
    daysAfterLaunch: t.exposeInt('daysAfterLaunch', {
      description: 'Days with a sales estimate after a launch.',
    }),
    otherDays: t.exposeInt('otherDays', {
      description: 'Days with a sales estimate and no launch in the window.',
    }),
    meanUnitsAfterLaunch: t.exposeFloat('meanUnitsAfterLaunch', {
      nullable: true,
      description: 'Mean estimated units per day after a launch; null when there is no such day.',
    }),
    meanUnitsOtherDays: t.exposeFloat('meanUnitsOtherDays', {
      nullable: true,
      description: 'Mean estimated units per other day; null when there is no such day.',
    }),
    unitsLiftPercent: t.exposeFloat('unitsLiftPercent', {
      nullable: true,
      description: 'Null when a group is empty or the other days sold nothing.',
    }),
    meanRevenueAfterLaunch: t.exposeFloat('meanRevenueAfterLaunch', {
      nullable: true,
      description: "In the overview's currency.",
    }),
    meanRevenueOtherDays: t.exposeFloat('meanRevenueOtherDays', {
      nullable: true,
      description: "In the overview's currency.",
    }),
    meanRevenueAfterLaunchUsd: t.exposeFloat('meanRevenueAfterLaunchUsd', {
      nullable: true,
      description: 'USD stores only; null otherwise.',
    }),
    meanRevenueOtherDaysUsd: t.exposeFloat('meanRevenueOtherDaysUsd', {
      nullable: true,
      description: 'USD stores only; null otherwise.',
    }),
    revenueLiftPercent: t.exposeFloat('revenueLiftPercent', {
      nullable: true,
      description:
        'Percent by which mean revenue after a launch exceeds that of other days (negative: below); null when a group is empty or the other days earned nothing.',
    }),
  }),
});

const AdsOverviewRef = builder.objectRef<AdsOverview>('AdsOverview').implement({
  description: 'Ads versus estimated SKU sales of a watch. Sales and lift are estimates.',
  fields: (t) => ({
    days: t.exposeInt('days', { description: 'Days the overview covers, today included.' }),
    from: t.field({ type: 'Date', description: 'First UTC day covered.', resolve: (o) => o.from }),
    to: t.field({
      type: 'Date',
      description: 'Last UTC day covered (today).',
      resolve: (o) => o.to,
    }),
    isEstimate: t.boolean({
      description: 'Always true: sales and lift are modeled.',
      resolve: () => true,
    }),
    snapshots: t.exposeInt('snapshots', {
      description: 'Inventory snapshots of the watch so far; sales need at least 2.',
    }),
    method: t.exposeString('method', { description: 'How the lift is computed.' }),
    note: t.exposeString('note', {
      nullable: true,
      description: 'Why sales or lift are missing, when they are.',
    }),
    currency: t.exposeString('currency', {
      description: "ISO 4217 currency of every revenue figure: the store's own.",
    }),
    daily: t.field({
      type: [OverviewDayRef],
      description: 'One entry per day, oldest first.',
      resolve: (o) => o.daily,
    }),
    lift: t.field({
      type: SalesLiftRef,
      nullable: true,
      description: 'Null until the watch has 2 inventory snapshots.',
      resolve: (o) => o.lift,
    }),
  }),
});

const NetworkProbeStatusEnum = builder.enumType('AdNetworkProbeStatus', {
  description:
    'OK: the library answered. NOT_CONFIGURED: the server has no base URL or token for it. FAILED: see error. REST spells each in lower case.',
  values: upperCaseValues(['ok', 'not_configured', 'failed'], {
    ok: 'The library answered; its counts are complete.',
    not_configured: 'The server has no base URL or token for this library: it was not asked.',
    failed: 'The library was asked and did not answer usably (see error).',
  }),
});

const NetworkProbeRef = builder.objectRef<NetworkProbeResult>('AdNetworkProbe').implement({
  description: 'What one ad library answered during probeSignalAds.',
  fields: (t) => ({
    network: t.field({
      type: AdNetworkEnum,
      description: 'The library asked.',
      resolve: (n) => n.network,
    }),
    status: t.field({
      type: NetworkProbeStatusEnum,
      description: 'Whether it answered, was not configured or failed.',
      resolve: (n) => n.status,
    }),
    adsFound: t.exposeInt('adsFound', { description: 'Running creatives the library listed.' }),
    newAds: t.exposeInt('newAds', { description: 'Of those, creatives not on record before.' }),
    endedAds: t.exposeInt('endedAds', {
      description: 'Creatives on record the library no longer lists, now inactive.',
    }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Why the network failed or is not configured.',
    }),
  }),
});

const AdsProbeRef = builder.objectRef<AdsProbeResult>('AdsProbe').implement({
  description: "The result of probeSignalAds: each library's answer and the insights it made.",
  fields: (t) => ({
    domain: t.exposeString('domain', { description: "The watched store's canonical domain." }),
    probedAt: t.expose('probedAt', {
      type: 'DateTime',
      description: 'When the libraries were asked.',
    }),
    networks: t.field({
      type: [NetworkProbeRef],
      description: 'One result per network: meta, tiktok, google.',
      resolve: (p) => p.networks,
    }),
    insightsCreated: t.exposeInt('insightsCreated', {
      description: 'ad_new_campaign insights written, across the watches of the store.',
    }),
  }),
});

builder.mutationField('probeSignalAds', (t) =>
  t.field({
    type: AdsProbeRef,
    description:
      `Refreshes the watched store's creatives from every configured ad library, synchronously. At most once every ` +
      `${ADS_PROBE_COOLDOWN_MS / 60_000} minutes per watch (rate_limited). Partner keys are refused (unauthorized, details.reason scope).`,
    args: {
      domain: t.arg.string({
        required: true,
        description: 'The watched domain (or URL) or the legacy store id.',
      }),
    },
    resolve: (_root, { domain }, ctx) => probeSignalAds(ctx, domain),
  }),
);
