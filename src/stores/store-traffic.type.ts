// Store.traffic: the latest third-party traffic mix (null without coverage) and the monthly series.
// The columns hold percents (organic_pct = 45 means 45 %); the API reports shares 0..1.
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { pagedConnection } from '../graphql/pagination.ts';
import { latestTrafficByStoreId, trafficPage } from './store.loaders.ts';
import type { TrafficRecord } from './store.sql.ts';
import { StoreRef } from './store.ref.ts';
import type { StoreRecord } from './store.sql.ts';

const share = (pct: number): number => Math.round(pct * 100) / 10_000;

const TrafficMix = builder.objectRef<TrafficRecord>('TrafficMix').implement({
  description: 'Share of visits by channel in one month, from a third-party source (shares 0..1).',
  fields: (t) => ({
    month: t.field({ type: 'Date', resolve: (r) => r.month }),
    organic: t.float({ resolve: (r) => share(r.organicPct) }),
    paid: t.float({ resolve: (r) => share(r.paidPct) }),
    social: t.float({ resolve: (r) => share(r.socialPct) }),
    direct: t.float({ resolve: (r) => share(r.directPct) }),
    referral: t.float({ resolve: (r) => share(r.referralPct) }),
    source: t.exposeString('source', { description: 'The third-party traffic source.' }),
  }),
});

const TrafficPoint = builder.objectRef<TrafficRecord>('TrafficPoint').implement({
  description: 'One month of third-party traffic: visits and channel shares (0..1).',
  fields: (t) => ({
    month: t.field({ type: 'Date', resolve: (r) => r.month }),
    visits: t.exposeInt('visits'),
    organic: t.float({ resolve: (r) => share(r.organicPct) }),
    paid: t.float({ resolve: (r) => share(r.paidPct) }),
    social: t.float({ resolve: (r) => share(r.socialPct) }),
    direct: t.float({ resolve: (r) => share(r.directPct) }),
    referral: t.float({ resolve: (r) => share(r.referralPct) }),
    source: t.exposeString('source'),
  }),
});

const TrafficConnection = builder.connectionObject(
  { type: TrafficPoint, name: 'TrafficConnection' },
  { name: 'TrafficEdge' },
);

const StoreTraffic = builder.objectRef<StoreRecord>('StoreTraffic').implement({
  description:
    'Third-party traffic of a store. Stores without coverage have latest = null and an empty series.',
  fields: (t) => ({
    latest: t.field({
      type: TrafficMix,
      nullable: true,
      resolve: (store, _args, ctx) => latestTrafficByStoreId(ctx).load(store.id),
    }),
    series: t.field({
      type: TrafficConnection,
      args: pageArgs,
      description: 'Monthly points, newest month first.',
      resolve: (store, args, ctx) =>
        pagedConnection(args, (window) => trafficPage(ctx).load({ parentId: store.id, ...window })),
    }),
  }),
});

builder.objectField(StoreRef, 'traffic', (t) =>
  t.field({ type: StoreTraffic, resolve: (store) => store }),
);
