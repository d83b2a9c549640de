// GET /v1/stores/facets: the valid values of the store filters, with store counts.
import { z } from 'zod';
import { StoreFacetsDocument } from '../../generated/operations.ts';
import { integerParam } from '../../params.ts';
import { defineRoute, noPathParams, type RestRoute } from '../../route.ts';
import { FilterSuggestion } from '../../shapes.ts';
import { DEFAULT_FACET_VALUES, MAX_FACET_VALUES } from '../../../src/stores/store-facets.ts';
import { SEEDED } from '../../../src/seed/seeded-catalog.ts';
import { checkFilterRanges, storeFilterParams, storeFilterVariables } from './store-filters.ts';

const FacetValue = z
  .strictObject({
    value: z.string().meta({
      description: 'A value as the catalog spells it: pass it as the filter of the same name.',
    }),
    stores: z
      .number()
      .int()
      .meta({ description: 'Stores with this value among those the filters keep.' }),
  })
  .meta({ id: 'FacetValue' });

const facetValues = (description: string) => z.array(FacetValue).meta({ description });

export const StoreFacets = z
  .strictObject({
    stores: z.number().int().meta({ description: 'Stores the filters keep.' }),
    facets: z.strictObject({
      vertical: facetValues('Values of the vertical filter.'),
      industry: facetValues('Values of the industry filter.'),
      category: facetValues('Values of the category filter.'),
      countryCode: facetValues('Values of the countryCode filter.'),
      theme: facetValues('Values of the theme filter.'),
      tld: facetValues(
        'Values of the tld filter: domain endings (store.example, example), each counting every store whose domain ends in it.',
      ),
      app: facetValues('App slugs, for the app, anyApp and notApp filters.'),
    }),
    suggestions: z.array(FilterSuggestion).meta({
      description:
        'For each filter value no store of the catalog has, the nearest valid values; empty when every value exists.',
    }),
  })
  .meta({
    id: 'StoreFacets',
    description:
      "The store filters' valid values with store counts among the stores the filters keep, most stores first.",
  });

export const storeFacets = defineRoute({
  operationId: 'storeFacets',
  method: 'GET',
  path: '/v1/stores/facets',
  tag: 'Stores',
  summary: 'The valid values of the store filters, with store counts',
  description:
    'The values of vertical, industry, category, countryCode, theme, tld and app (slugs) among the stores the same filters ' +
    'as GET /v1/stores keep (the whole catalog without any), each with its number of stores, most stores first; pass a ' +
    'value as the filter of the same name. `suggestions` names the nearest valid values of any filter value no store has. ' +
    "Without filters the counts are the whole catalog's, recomputed with the grouped rollups every few minutes; with " +
    'filters they are counted live.',
  document: StoreFacetsDocument,
  pathParams: noPathParams,
  query: z
    .strictObject(storeFilterParams)
    .extend({
      perFacet: integerParam({ min: 1, max: MAX_FACET_VALUES })
        .default(DEFAULT_FACET_VALUES)
        .meta({
          description: `Values listed per facet, most stores first: 1 to ${MAX_FACET_VALUES}.`,
        }),
    })
    .superRefine(checkFilterRanges),
  canBeNotFound: false,
  variables: (p) => ({ filter: storeFilterVariables(p), perFacet: p.perFacet }),
  response: StoreFacets,
  respond: (data) => {
    const { stores, suggestions, ...facets } = data.storeFacets;
    return { stores, facets, suggestions };
  },
  example: `/v1/stores/facets?vertical=${encodeURIComponent(SEEDED.vertical)}&perFacet=10`,
});

/** The facets route, in the order docs.md and the OpenAPI description list it. */
export const storeFacetRoutes: readonly RestRoute[] = [storeFacets];
