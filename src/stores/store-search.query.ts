// Query.stores: the store search (GET /v1/stores without groupBy).
import { builder } from '../graphql/builder.ts';
import { upperCaseValues } from '../graphql/enums.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { pagedConnection, totalSelected } from '../graphql/pagination.ts';
import { selectedFieldNames, selectedItemFieldNames } from '../graphql/selection.ts';
import { EXACT_TOTAL_FILTERS } from './rollups/store-filter-counts.ts';
import { resolveStoreFilter, StoreFilter } from './store-filter.ts';
import { effectiveSort, sortedStorePage, STORE_SORTS, textSearchPage } from './store-search.sql.ts';
import { primeStoreReads, primeStores, storeReadNeeds } from './store.loaders.ts';
import { StoreRef } from './store.ref.ts';
import { filterSuggestions, type FilterSuggestion } from './filter-suggestions.ts';
import { FilterSuggestionRef } from './store-facets.query.ts';
import { rules } from '../access/field-rules.ts';
import {
  assertRelevanceDirection,
  OrderDirectionEnum,
  type OrderDirection,
} from '../graphql/order.ts';
import { badRequest } from '../platform/errors.ts';
import type { StoreSort } from './store-search.sql.ts';

export const StoreSortEnum = builder.enumType('StoreSort', {
  description:
    'Order of the store search. RELEVANCE: how well name and domain words match q (see StoreFilter.q), then visits.',
  values: upperCaseValues(STORE_SORTS, {
    revenue: 'High end of the modeled revenue band, highest first (REST sort=revenue).',
    visits: 'Modeled monthly visits, highest first.',
    rating: 'Service rating, highest first.',
    newest: 'Most recently added to the catalog first (firstSeenAt).',
    relevance: 'Best match of filter.q first; without q, the same as revenue.',
  }),
});

export const StoreOrderFieldEnum = builder.enumType('StoreOrderField', {
  description:
    'What orderBy orders stores by. REST spells each as its sort value (sort=revenue, newest for FIRST_SEEN).',
  values: {
    RELEVANCE: {
      value: 'relevance',
      description:
        'How well name and domain words match filter.q (see StoreFilter.q), then visits; DESC only. Without q: REVENUE.',
    },
    REVENUE: {
      value: 'revenue',
      description: "The modeled monthly revenue band's high end, then visits.",
    },
    VISITS: { value: 'visits', description: 'Modeled monthly visits.' },
    RATING: { value: 'rating', description: 'The service rating, then visits.' },
    FIRST_SEEN: {
      value: 'newest',
      description: 'When the catalog first saw the store (DESC: newest first).',
    },
  } as const,
});

export const StoreOrder = builder.inputType('StoreOrder', {
  description: 'The order of a store list: a field and a direction.',
  fields: (t) => ({
    field: t.field({ type: StoreOrderFieldEnum, required: true, description: 'What to order by.' }),
    direction: t.field({
      type: OrderDirectionEnum,
      defaultValue: 'desc',
      description: 'DESC (default): largest or newest first.',
    }),
  }),
});

/** The search's order: orderBy, else the deprecated sort, else the default (relevance with q, revenue without). */
function storeOrder(
  orderBy: { field: StoreSort; direction?: OrderDirection | null } | null | undefined,
  sort: StoreSort | null | undefined,
  q: string | null | undefined,
): { sort: StoreSort; direction: OrderDirection } {
  if (orderBy && sort) {
    const rule = 'give orderBy or sort, not both';
    throw badRequest(`Invalid orderBy: ${rule}`, { parameter: 'orderBy', rule });
  }
  const direction = orderBy?.direction ?? 'desc';
  const effective = effectiveSort(orderBy?.field ?? sort, q);
  if (effective === 'relevance') assertRelevanceDirection(direction);
  return { sort: effective, direction };
}

/** The store search's connection: the store connection plus the suggestions for filter values the catalog does not have. */
const StoreSearchConnection = builder.connectionObject(
  {
    type: StoreRef,
    name: 'StoreSearchConnection',
    description:
      'A page of the store search (Query.stores), with its total and suggestions for unknown filter values.',
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
  { name: 'StoreSearchEdge', description: 'One store of the search, with its cursor.' },
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
      filter: t.arg({
        type: StoreFilter,
        description:
          'Conditions every store must meet (all must hold); omit for the whole catalog.',
      }),
      orderBy: t.arg({
        type: StoreOrder,
        description: 'The order (default: RELEVANCE with filter.q, REVENUE without; DESC).',
      }),
      sort: t.arg({
        type: StoreSortEnum,
        deprecationReason: 'Use orderBy: {field, direction}.',
        description: 'The order, as REST spells it; orderBy replaces it.',
      }),
    },
    resolve: async (_root, args, ctx, info) => {
      const pool = ctx.services.db.read;
      const { sort, direction } = storeOrder(args.orderBy, args.sort, args.filter?.q);
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
            const page = await textSearchPage(pool, match, sort, window, direction);
            primeStores(ctx, page.rows);
            return page;
          });
        }
        // a filtered list: its page, what its cards need and its total in one statement
        const listSort = sort === 'relevance' ? 'revenue' : sort;
        const needs = {
          ...storeReadNeeds(selectedItemFieldNames(info), (path) =>
            selectedItemFieldNames(info, path),
          ),
          total: totalSelected(info),
        };
        return pagedConnection(args, async (window) => {
          const page = await sortedStorePage(
            pool,
            filter,
            listSort,
            window,
            needs,
            ctx.services.legacy.colocatedTable,
            direction,
          );
          return { ...page, rows: primeStoreReads(ctx, page.rows, needs) };
        });
      }
    },
  }),
);
