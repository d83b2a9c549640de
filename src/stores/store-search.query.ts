// Query.stores: the store search (GET /v1/stores without groupBy).
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { offsetConnection, pagedConnection } from '../graphql/pagination.ts';
import { selectedFieldNames } from '../graphql/selection.ts';
import { resolveStoreFilter, StoreFilter } from './store-filter.ts';
import { countStores, effectiveSort, searchStores, sortedStorePage, STORE_SORTS } from './store-search.sql.ts';
import { primeStoreReads, primeStores, storeReadNeeds } from './store.loaders.ts';
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
    resolve: async (_root, args, ctx, info) => {
      const pool = ctx.services.db.read;
      const sort = effectiveSort(args.sort, args.filter?.q);
      const filter = await resolveStoreFilter(pool, args.filter);
      if (!filter?.q && sort !== 'relevance') {
        // a filtered list: its page, what its cards need and its total in one statement
        const selected = selectedFieldNames(info);
        const needs = { ...storeReadNeeds(selectedFieldNames(info, ['edges', 'node'])), total: selected.has('totalCount') || selected.has('totalCountExact') };
        return pagedConnection(args, async (window) => {
          const page = await sortedStorePage(pool, filter, sort, window, needs, ctx.services.legacy.colocatedTable);
          return { ...page, rows: primeStoreReads(ctx, page.rows, needs) };
        });
      }
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
