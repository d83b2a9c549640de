// Query.stores: the store search (GET /v1/stores without groupBy).
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { offsetConnection } from '../graphql/pagination.ts';
import { resolveStoreFilter, StoreFilter } from './store-filter.ts';
import { countStores, effectiveSort, searchStores, STORE_SORTS } from './store-search.sql.ts';
import { primeStores } from './store.loaders.ts';
import { StoreConnection } from './store.ref.ts';
import { rules } from '../access/field-rules.ts';

export const StoreSortEnum = builder.enumType('StoreSort', {
  description: 'Order of the store search. relevance = trigram similarity to q.',
  values: STORE_SORTS,
});

builder.queryField('stores', (t) =>
  t.field({
    extensions: rules({ quota: 'storeSearches', cache: 'public' }),
    type: StoreConnection,
    description:
      'Search and filter stores. Default order: relevance when filter.q is set, otherwise revenue (high end of the band).',
    args: {
      ...pageArgs,
      filter: t.arg({ type: StoreFilter }),
      sort: t.arg({ type: StoreSortEnum }),
    },
    resolve: async (_root, args, ctx) => {
      const pool = ctx.services.db.read;
      const sort = effectiveSort(args.sort, args.filter?.q);
      const filter = await resolveStoreFilter(pool, args.filter);
      return offsetConnection(
        args,
        async (window) => {
          const stores = await searchStores(pool, filter, sort, window);
          primeStores(ctx, stores);
          return stores;
        },
        () => countStores(pool, filter),
      );
    },
  }),
);
