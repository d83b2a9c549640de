// Store.traffic: the latest third-party traffic mix (null without coverage) and the monthly series.
// The columns hold percents (organic_pct = 45 means 45 %); the API reports shares 0..1.
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { childConnection } from '../graphql/child-pages.ts';
import { latestTrafficOf, trafficPage } from './store.loaders.ts';
import type { TrafficRecord } from './store.sql.ts';
import { StoreRef } from './store.ref.ts';
import type { StoreRecord } from './store.sql.ts';

const share = (pct: number): number => Math.round(pct * 100) / 10_000;

/** A traffic month as the API reports it: channel shares 0..1 rather than the columns' percents. */
interface TrafficShares {
  month: string;
  visits: number;
  organic: number;
  paid: number;
  social: number;
  direct: number;
  referral: number;
  source: string;
}

/**
 * Made once a month read, so its fields are plain properties: graphql-jit builds a resolve info and
 * a response path for each resolver call, which six share resolvers paid on every card of a page.
 */
function sharesOf(r: TrafficRecord): TrafficShares {
  return {
    month: r.month,
    visits: r.visits,
    organic: share(r.organicPct),
    paid: share(r.paidPct),
    social: share(r.socialPct),
    direct: share(r.directPct),
    referral: share(r.referralPct),
    source: r.source,
  };
}

const sharesOrNull = (r: TrafficRecord | null) => (r ? sharesOf(r) : null);

/** The month and its channel shares, on both the latest mix and each point of the series. */
function monthAndShares(ref: typeof TrafficMix): void {
  builder.objectFields(ref, (t) => ({
    month: t.expose('month', {
      type: 'Date',
      description: 'The month, as its first day (YYYY-MM-01).',
    }),
    organic: t.exposeFloat('organic', {
      description: 'Share of visits from organic search, 0 to 1 (0.45 means 45%).',
    }),
    paid: t.exposeFloat('paid', {
      description: 'Share of visits from paid ads (search and social), 0 to 1.',
    }),
    social: t.exposeFloat('social', {
      description: 'Share of visits from unpaid social media, 0 to 1.',
    }),
    direct: t.exposeFloat('direct', {
      description: 'Share of visits typed in or bookmarked (no referrer), 0 to 1.',
    }),
    referral: t.exposeFloat('referral', {
      description: 'Share of visits from links on other sites, 0 to 1.',
    }),
  }));
}

const TrafficMix = builder.objectRef<TrafficShares>('TrafficMix').implement({
  description: 'Share of visits by channel in one month, from a third-party source (shares 0..1).',
  fields: (t) => ({
    source: t.exposeString('source', { description: 'The third-party traffic source.' }),
  }),
});

const TrafficPoint = builder.objectRef<TrafficShares>('TrafficPoint').implement({
  description: 'One month of third-party traffic: visits and channel shares (0..1).',
  fields: (t) => ({
    visits: t.exposeInt('visits', {
      description: "The source's estimate of the month's visits (not the modeled monthlyVisits).",
    }),
    source: t.exposeString('source', { description: 'The third-party source of this month.' }),
  }),
});

monthAndShares(TrafficMix);
monthAndShares(TrafficPoint);

const TrafficConnection = builder.connectionObject(
  {
    type: TrafficPoint,
    name: 'TrafficConnection',
    description: "A page of a store's monthly third-party traffic, newest month first.",
  },
  { name: 'TrafficEdge', description: "One month of a store's traffic series, with its cursor." },
);

const StoreTraffic = builder.objectRef<StoreRecord>('StoreTraffic').implement({
  description:
    'Third-party traffic of a store. Stores without coverage have latest = null and an empty series.',
  fields: (t) => ({
    latest: t.field({
      type: TrafficMix,
      nullable: true,
      description:
        'The latest month with third-party data (REST traffic.latest); null when the store has no coverage.',
      resolve: (store, _args, ctx) => {
        const latest = latestTrafficOf(ctx, store);
        return latest instanceof Promise ? latest.then(sharesOrNull) : sharesOrNull(latest);
      },
    }),
    series: t.field({
      type: TrafficConnection,
      args: pageArgs,
      description: 'Monthly points, newest month first.',
      resolve: (store, args, ctx, info) =>
        childConnection(args, info, store.id, (key) =>
          trafficPage(ctx)
            .load(key)
            .then((page) => ({ ...page, rows: page.rows.map(sharesOf) })),
        ),
    }),
  }),
});

builder.objectField(StoreRef, 'traffic', (t) =>
  t.field({
    type: StoreTraffic,
    description: 'Third-party traffic: the latest channel mix and the monthly series.',
    resolve: (store) => store,
  }),
);
