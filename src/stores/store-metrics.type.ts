// Store.metrics: the observed inputs of the models and the 30-day changes the movers rank by.
import { builder } from '../graphql/builder.ts';
import { StoreRef } from './store.ref.ts';
import type { StoreRecord } from './store.sql.ts';

const StoreMetrics = builder.objectRef<StoreRecord>('StoreMetrics').implement({
  description: 'Observed catalog and audience figures, and 30-day changes of the modeled ones.',
  fields: (t) => ({
    productCount: t.exposeInt('productCount', {
      description: 'Products in the storefront catalog at the last scrape.',
    }),
    bestSellerCount: t.exposeInt('bestSellerCount', {
      description: 'Of those, products the storefront marks as best sellers.',
    }),
    appCount: t.exposeInt('appCount', {
      description: 'Platform apps detected on the storefront (the length of Store.apps).',
    }),
    medianPriceUsd: t.exposeFloat('medianPriceUsd', {
      nullable: true,
      description: 'Median product price, USD; null when no product has a price.',
    }),
    socialFollowers: t.exposeInt('socialFollowers', {
      description: "Followers summed over the store's social profiles; 0 when it has none.",
    }),
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
  t.field({
    type: StoreMetrics,
    description: "Observed catalog and audience figures (the models' inputs) and 30-day changes.",
    resolve: (store) => store,
  }),
);
