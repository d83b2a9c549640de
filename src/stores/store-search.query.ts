// Query.stores: the store search (GET /v1/stores without groupBy).
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { pagedConnection } from '../graphql/pagination.ts';
import { selectedFieldNames } from '../graphql/selection.ts';
import { EXACT_TOTAL_FILTERS } from './rollups/store-filter-counts.ts';
import { resolveStoreFilter, StoreFilter } from './store-filter.ts';
import { effectiveSort, sortedStorePage, STORE_SORTS, textSearchPage } from './store-search.sql.ts';
import { primeStoreReads, primeStores, storeReadNeeds } from './store.loaders.ts';
import { StoreRef } from './store.ref.ts';
import { filterSuggestions, type FilterSuggestion } from './filter-suggestions.ts';
import { FilterSuggestionRef } from './store-facets.query.ts';
import { rules } from '../access/field-rules.ts';

export const StoreSortEnum = builder.enumType('StoreSort', {
  description:
    'Order of the store search. relevance: how well name and domain words match q (see StoreFilter.q), then visits.',
  values: STORE_SORTS,
});

/** The store search's connection: the store connection plus the suggestions for filter values the catalog does not have. */
const StoreSearchConnection = builder.connectionObject(
  {
    type: StoreRef,
    name: 'StoreSearchConnection',
    fields: (t) => ({
      filterSuggestions: t.field({
        type: [FilterSuggestionRef],
        description:
          'For each filter value no store of the catalog has (such a filter matches nothing), the nearest valid values. ' +
          'Empty when every value is known. GET /v1/stores/facets lists the valid values.',
        resolve: (connection) =>
          (connection as { filterSuggestions?: FilterSuggestion[] }).filterSuggestions ?? [],
      }),
    }),
  },
  { name: 'StoreSearchEdge' },
);

builder.queryField('stores', (t) =>
  t.field({
    extensions: rules({ quota: 'storeSearches', cache: 'public' }),
    type: StoreSearchConnection,
    description:
      'Search and filter stores. Default order: relevance when filter.q is set, otherwise revenue (high end of the band). ' +
      `totalCount is exact at any size, read from counts kept as observations change the catalog, when the filter has no q and its fields are ${EXACT_TOTAL_FILTERS}; ` +
      'otherwise exact up to 10,000 matches and estimated beyond (totalCountExact).',
    args: {
      ...pageArgs,
      filter: t.arg({ type: StoreFilter }),
      sort: t.arg({ type: StoreSortEnum }),
    },
    resolve: async (_root, args, ctx, info) => {
      const pool = ctx.services.db.read;
      const sort = effectiveSort(args.sort, args.filter?.q);
      const filter = await resolveStoreFilter(pool, args.filter);
      const selected = selectedFieldNames(info);
      const [connection, suggestions] = await Promise.all([
        storeConnection(),
        selected.has('filterSuggestions') ? filterSuggestions(pool, filter) : undefined,
      ]);
      return { ...connection, filterSuggestions: suggestions };

      function storeConnection() {
        if (filter?.textMatch) {
          const match = { ...filter, textMatch: filter.textMatch };
          // a search: the vocabulary's statement (in resolveStoreFilter), then its page and total in one
          return pagedConnection(args, async (window) => {
            const page = await textSearchPage(pool, match, sort, window);
            primeStores(ctx, page.rows);
            return page;
          });
        }
        // a filtered list: its page, what its cards need and its total in one statement
        const listSort = sort === 'relevance' ? 'revenue' : sort;
        const needs = {
          ...storeReadNeeds(
            new Set([
              ...selectedFieldNames(info, ['edges', 'node']),
              ...selectedFieldNames(info, ['nodes']),
            ]),
          ),
          total: selected.has('totalCount') || selected.has('totalCountExact'),
        };
        return pagedConnection(args, async (window) => {
          const page = await sortedStorePage(
            pool,
            filter,
            listSort,
            window,
            needs,
            ctx.services.legacy.colocatedTable,
          );
          return { ...page, rows: primeStoreReads(ctx, page.rows, needs) };
        });
      }
    },
  }),
);
