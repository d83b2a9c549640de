// Store.history: daily snapshots (the profile's charts), newest day first.
import { builder } from '../graphql/builder.ts';
import { pageArgsUpTo } from '../graphql/page-args.ts';
import { childConnection } from '../graphql/child-pages.ts';
import { MAX_HISTORY_DAYS } from '../graphql/pagination.ts';
import { RevenueBand } from './bands.type.ts';
import { historyPage } from './store.loaders.ts';
import type { HistoryRecord } from './store.sql.ts';
import { StoreRef } from './store.ref.ts';

const HistoryPoint = builder.objectRef<HistoryRecord>('HistoryPoint').implement({
  description: "One day's snapshot of a store's modeled figures and catalog size.",
  fields: (t) => ({
    day: t.field({
      type: 'Date',
      description: 'The day of the snapshot (UTC).',
      resolve: (h) => h.day,
    }),
    monthlyVisits: t.exposeInt('monthlyVisits', {
      description: 'Modeled monthly visits as of this day.',
    }),
    monthlyRevenueUsd: t.field({
      type: RevenueBand,
      description: 'Modeled monthly revenue band as of this day, USD.',
      resolve: (h) => ({ low: h.revenueLowUsd, high: h.revenueHighUsd }),
    }),
    serviceRating: t.exposeInt('serviceRating', {
      description: 'The service rating (0 to 100) as of this day.',
    }),
    productCount: t.exposeInt('productCount', { description: 'Products in the catalog that day.' }),
    synthetic: t.exposeBoolean('synthetic', {
      description:
        "True for the demo catalog's synthetic history (the seed); false for a day written by an observation of the storefront.",
    }),
  }),
});

const HistoryConnection = builder.connectionObject(
  {
    type: HistoryPoint,
    name: 'HistoryConnection',
    description: "A page of a store's daily snapshots, newest day first.",
  },
  { name: 'HistoryEdge', description: "One day of a store's history, with its cursor." },
);

builder.objectField(StoreRef, 'history', (t) =>
  t.field({
    type: HistoryConnection,
    args: pageArgsUpTo(MAX_HISTORY_DAYS),
    description: `Daily snapshots, newest day first; up to ${MAX_HISTORY_DAYS} in one page.`,
    resolve: (store, args, ctx, info) =>
      childConnection(args, info, store.id, (key) => historyPage(ctx).load(key), MAX_HISTORY_DAYS),
  }),
);
