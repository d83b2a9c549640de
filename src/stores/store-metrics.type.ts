// Store.metrics: the observed inputs of the models and the 30-day changes the movers rank by.
import { builder } from '../graphql/builder.ts';
import { StoreRef } from './store.ref.ts';
import type { StoreRecord } from './store.sql.ts';

const StoreMetrics = builder.objectRef<StoreRecord>('StoreMetrics').implement({
  description: 'Observed catalog and audience figures, and 30-day changes of the modeled ones.',
  fields: (t) => ({
    productCount: t.exposeInt('productCount'),
    bestSellerCount: t.exposeInt('bestSellerCount'),
    appCount: t.exposeInt('appCount'),
    medianPriceUsd: t.exposeFloat('medianPriceUsd', { nullable: true }),
    socialFollowers: t.exposeInt('socialFollowers'),
    adSpendUsd: t.exposeInt('adSpendUsd', { description: 'Modeled monthly ad spend, USD.' }),
    visitsChangePct: t.exposeFloat('visitsChangePct', {
      nullable: true,
      description: 'Change of monthly visits over 30 days, percent.',
    }),
    revenueChangePct: t.exposeFloat('revenueChangePct', {
      nullable: true,
      description: "Change of the revenue band's high end over 30 days, percent.",
    }),
  }),
});

builder.objectField(StoreRef, 'metrics', (t) =>
  t.field({ type: StoreMetrics, resolve: (store) => store }),
);
