// GET /v1/stores: store search, or the filtered stores rolled up by a grouping.
import { z } from 'zod';
import { SearchStoresDocument } from '../../generated/operations.ts';
import { connectionArgs, listEnvelope } from '../../pagination.ts';
import { enumParam, paginationParams } from '../../params.ts';
import { defineRoute, noPathParams, type RestRoute } from '../../route.ts';
import { StoreList, suggestions } from '../../shapes.ts';
import { SEEDED } from '../../../src/seed/seeded-catalog.ts';
import { toGraphqlEnum } from '../../../src/graphql/enums.ts';
import { checkFilterRanges, storeFilterParams, storeFilterVariables } from './store-filters.ts';

export const StoreGroupRow = z
  .strictObject({
    key: z.string().meta({ description: 'parent, or "parent / leaf" with groupBy2.' }),
    parent: z.string().nullable().meta({ description: 'Value of the groupBy grouping.' }),
    leaf: z
      .string()
      .nullable()
      .meta({ description: 'Value of the groupBy2 grouping; null without groupBy2.' }),
    stores: z
      .number()
      .int()
      .meta({ description: 'Stores in the group (what sort=stores orders by).' }),
    metrics: z.strictObject({
      monthlyRevenueUsd: z.number().meta({
        description:
          'The groupMetric aggregate of the high end of the revenue band: modeled, not GMV.',
      }),
      monthlyVisits: z
        .number()
        .meta({ description: 'The groupMetric aggregate of modeled monthly visits.' }),
    }),
  })
  .meta({ id: 'StoreGroupRow', description: 'A grouped row. Grouped rows are not stores.' });

export const STORE_GROUPINGS = ['country', 'vertical', 'industry', 'category'] as const;
export const GROUP_METRICS = ['mean', 'median', 'max', 'min'] as const;

export const StoreGroupList = z
  .strictObject({
    data: z.array(StoreGroupRow),
    page: StoreList.shape.page,
    meta: z.strictObject({
      mode: z.literal('grouped'),
      groupBy: z.enum(STORE_GROUPINGS),
      groupBy2: z.enum(STORE_GROUPINGS).nullable(),
      groupMetric: z.enum(GROUP_METRICS),
      suggestions: suggestions.optional(),
    }),
  })
  .meta({
    id: 'StoreGroupList',
    description: 'A page of grouped rows (GET /v1/stores with groupBy).',
  });

const STORE_SORTS = ['revenue', 'visits', 'stores', 'rating', 'newest', 'relevance'] as const;
const GROUP_SORTS = ['stores', 'revenue', 'visits'] as const;
type GroupSort = (typeof GROUP_SORTS)[number];
const isGroupSort = (sort: string | undefined): sort is GroupSort =>
  GROUP_SORTS.some((s) => s === sort);

/** REST's sort values as GraphQL's orderBy fields (newest is FIRST_SEEN, DESC). */
const STORE_ORDER_FIELDS = {
  revenue: 'REVENUE',
  visits: 'VISITS',
  rating: 'RATING',
  newest: 'FIRST_SEEN',
  relevance: 'RELEVANCE',
} as const;
/** REST's groupBy values as GraphQL's StoreGrouping (country is COUNTRY_CODE). */
const GROUPINGS = {
  country: 'COUNTRY_CODE',
  vertical: 'VERTICAL',
  industry: 'INDUSTRY',
  category: 'CATEGORY',
} as const;

const searchQuery = z
  .strictObject({
    ...storeFilterParams,
    sort: enumParam(STORE_SORTS)
      .optional()
      .meta({
        description:
          'Without groupBy: revenue (default; relevance when q is given), visits, rating, newest or relevance; ' +
          'stores has no meaning for stores and gives the default order, so a grouped query with groupBy dropped ' +
          'still works. With groupBy: stores (default), revenue or visits.',
      }),
    groupBy: enumParam(STORE_GROUPINGS).optional().meta({
      description:
        'Roll the filtered stores up by this grouping (grouped mode, meta.mode = grouped).',
    }),
    groupBy2: enumParam(STORE_GROUPINGS).optional().meta({
      description:
        'Second grouping inside groupBy: rows get a parent and a leaf. Ignored without groupBy.',
    }),
    groupMetric: enumParam(GROUP_METRICS)
      .default('median')
      .meta({ description: 'Aggregate of the grouped metrics. Ignored without groupBy.' }),
    ...paginationParams(),
  })
  .superRefine((params, ctx) => {
    checkFilterRanges(params, ctx);
    if (params.groupBy !== undefined && params.groupBy2 === params.groupBy) {
      ctx.addIssue({ code: 'custom', path: ['groupBy2'], message: 'must differ from groupBy' });
    }
    if (params.groupBy !== undefined && params.sort !== undefined && !isGroupSort(params.sort)) {
      ctx.addIssue({
        code: 'custom',
        path: ['sort'],
        message: `with groupBy, must be one of: ${GROUP_SORTS.join(', ')}`,
      });
    }
  });

export const searchStores = defineRoute({
  operationId: 'searchStores',
  exportable: true,
  method: 'GET',
  path: '/v1/stores',
  tag: 'Stores',
  summary: 'Search stores, or roll them up by a grouping',
  description:
    'Without groupBy: a page of store cards. With groupBy: a page of grouped rows over the same filters, with ' +
    '`meta.mode = "grouped"`; grouped rows are not stores. Drop groupBy (and add the cell as a filter, e.g. ' +
    'countryCode) to list the stores behind a grouped cell; groupBy2, groupMetric and sort=stores then have no effect.',
  document: SearchStoresDocument,
  pathParams: noPathParams,
  query: searchQuery,
  canBeNotFound: false,
  variables: (p) => {
    const grouped = p.groupBy !== undefined;
    return {
      grouped,
      filter: storeFilterVariables(p),
      orderBy:
        grouped || p.sort === undefined || p.sort === 'stores'
          ? undefined
          : { field: STORE_ORDER_FIELDS[p.sort], direction: 'DESC' as const },
      groupBy: p.groupBy && GROUPINGS[p.groupBy],
      groupBy2: grouped && p.groupBy2 ? GROUPINGS[p.groupBy2] : undefined,
      groupMetric: grouped ? toGraphqlEnum(p.groupMetric) : undefined,
      groupOrderBy:
        grouped && isGroupSort(p.sort)
          ? { field: toGraphqlEnum(p.sort), direction: 'DESC' as const }
          : undefined,
      ...connectionArgs(p),
    };
  },
  response: z.union([StoreList, StoreGroupList]),
  respond: (data, p) => {
    if (p.groupBy === undefined) {
      const stores = required(data.stores, 'stores');
      const { filterSuggestions: suggestions } = stores;
      return {
        ...listEnvelope(stores, p),
        ...(suggestions.length ? { meta: { suggestions } } : {}),
      };
    }
    const groups = required(data.storeGroups, 'storeGroups');
    const { filterSuggestions: suggestions } = groups;
    return {
      ...listEnvelope(groups, p),
      meta: {
        mode: 'grouped' as const,
        groupBy: p.groupBy,
        groupBy2: p.groupBy2 ?? null,
        groupMetric: p.groupMetric,
        ...(suggestions.length ? { suggestions } : {}),
      },
    };
  },
  example: `/v1/stores?q=${SEEDED.brand}&limit=5`,
});

function required<T>(value: T | null | undefined, field: string): T {
  if (value === null || value === undefined) throw new Error(`operation result lacks ${field}`);
  return value;
}

/** The search route, in the order docs.md and the OpenAPI description list it. */
export const storeSearchRoutes: readonly RestRoute[] = [searchStores];
