// Query.storeFacets (GET /v1/stores/facets): the valid values of the store filters with their store
// counts among the stores a filter keeps; and FilterSuggestion, the nearest valid values of a
// filter value the catalog does not have, answered by the store search and the facets alike.
import { builder } from '../graphql/builder.ts';
import { rules } from '../access/field-rules.ts';
import { FACETS } from './rollups/store-facet-counts.ts';
import { filterSuggestions, type FilterSuggestion } from './filter-suggestions.ts';
import { resolveStoreFilter, StoreFilter, type ResolvedStoreFilter } from './store-filter.ts';
import {
  DEFAULT_FACET_VALUES,
  MAX_FACET_VALUES,
  storeFacets,
  type FacetValue,
  type StoreFacets,
} from './store-facets.ts';

export const FilterSuggestionRef = builder
  .objectRef<FilterSuggestion>('FilterSuggestion')
  .implement({
    description:
      "A filter value no store of the catalog has, and the catalog's nearest values (closest first).",
    fields: (t) => ({
      parameter: t.exposeString('parameter', {
        description:
          'The filter: vertical, industry, category, countryCode, theme, tld, app, anyApp, notApp, installedApp or uninstalledApp.',
      }),
      value: t.exposeString('value', { description: 'The value given.' }),
      nearest: t.exposeStringList('nearest', {
        description: 'Up to 3 valid values, closest first; empty when none is near.',
      }),
    }),
  });

/** The suggestions of a resolved filter, read only when a query selects them. */
export const suggestionsOf =
  (pool: Parameters<typeof filterSuggestions>[0], filter: ResolvedStoreFilter | null) => () =>
    filterSuggestions(pool, filter);

const FacetValueRef = builder.objectRef<FacetValue>('FacetValue').implement({
  description: 'One value of a store filter and how many of the kept stores have it.',
  fields: (t) => ({
    value: t.exposeString('value', {
      description: 'A value as the catalog spells it; pass it as the filter of the same name.',
    }),
    stores: t.exposeInt('stores', {
      description: 'Stores with this value among those the filter keeps.',
    }),
  }),
});

interface FacetsAnswer extends StoreFacets {
  suggestions: () => Promise<FilterSuggestion[]>;
}

const StoreFacetsRef = builder.objectRef<FacetsAnswer>('StoreFacets').implement({
  description:
    "The store filters' values among the stores a filter keeps, most stores first. tld values are domain endings " +
    '(store.example, example): each counts every store whose domain ends in it.',
  fields: (t) => ({
    stores: t.exposeInt('stores', { description: 'Stores the filter keeps.' }),
    live: t.exposeBoolean('live', {
      description:
        "False when the counts are the whole catalog's, recomputed with the grouped rollups every few minutes.",
    }),
    ...Object.fromEntries(
      FACETS.map((facet) => [
        facet,
        t.field({
          type: [FacetValueRef],
          description:
            facet === 'app'
              ? 'App slugs (app, anyApp, notApp filters).'
              : `Values of the ${facet} filter.`,
          resolve: (answer) => answer.facets[facet],
        }),
      ]),
    ),
    suggestions: t.field({
      type: [FilterSuggestionRef],
      description: 'For each filter value no store has, the nearest valid values.',
      resolve: (answer) => answer.suggestions(),
    }),
  }),
});

builder.queryField('storeFacets', (t) =>
  t.field({
    extensions: rules({ quota: 'storeSearches', cache: 'public' }),
    type: StoreFacetsRef,
    description:
      'The valid values of the store filters, with store counts, among the stores the filter keeps (all without one).',
    args: {
      filter: t.arg({
        type: StoreFilter,
        description:
          'The stores to count (as Query.stores filters them); omit for the whole catalog.',
      }),
      perFacet: t.arg.int({
        defaultValue: DEFAULT_FACET_VALUES,
        description: `Values per facet, most stores first: 1 to ${MAX_FACET_VALUES}.`,
        validate: {
          type: 'number',
          int: true,
          min: [1, { message: `must be from 1 to ${MAX_FACET_VALUES}` }],
          max: [MAX_FACET_VALUES, { message: `must be from 1 to ${MAX_FACET_VALUES}` }],
        },
      }),
    },
    resolve: async (_root, args, ctx) => {
      const pool = ctx.services.db.read;
      const filter = await resolveStoreFilter(pool, args.filter);
      const facets = await storeFacets(pool, filter, args.perFacet ?? DEFAULT_FACET_VALUES);
      return { ...facets, suggestions: suggestionsOf(pool, filter) };
    },
  }),
);
