// Query.storeGroups: grouped rows (GET /v1/stores with groupBy). Rows are cohorts, not stores.
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { pagedConnection } from '../graphql/pagination.ts';
import { ROLLUP_MAX_AGE_MINUTES, ROLLUP_REFRESH_MINUTES } from './rollups/store-rollups.ts';
import { selectedFieldNames } from '../graphql/selection.ts';
import { filterSuggestions, type FilterSuggestion } from './filter-suggestions.ts';
import { FilterSuggestionRef } from './store-facets.query.ts';
import { resolveStoreFilter, StoreFilter } from './store-filter.ts';
import {
  GROUP_METRICS,
  GROUP_SORTS,
  type STORE_GROUPINGS,
  storeGroups,
  UNKNOWN_GROUP,
  type StoreGroupRow,
} from './store-groups.sql.ts';
import { rules } from '../access/field-rules.ts';
import { upperCaseValues } from '../graphql/enums.ts';
import { OrderDirectionEnum, type OrderDirection } from '../graphql/order.ts';
import { badRequest } from '../platform/errors.ts';
import type { GroupSort as GroupSortValue } from './store-groups.sql.ts';

const StoreGrouping = builder.enumType('StoreGrouping', {
  description:
    'A store field to group by, named as the store filter and facet of the same values. REST spells each in lower case (groupBy=country for COUNTRY_CODE).',
  values: {
    COUNTRY_CODE: { value: 'country', description: 'The ISO 3166-1 alpha-2 country code.' },
    VERTICAL: { value: 'vertical', description: 'The vertical.' },
    INDUSTRY: { value: 'industry', description: 'The industry.' },
    CATEGORY: { value: 'category', description: 'The category.' },
  } as const satisfies Record<
    string,
    { value: (typeof STORE_GROUPINGS)[number]; description: string }
  >,
});
const GroupMetric = builder.enumType('GroupMetric', {
  description: 'Aggregate applied to each group: mean, median (50th percentile), max or min.',
  values: upperCaseValues(GROUP_METRICS, {
    mean: 'The mean.',
    median: 'The 50th percentile.',
    max: 'The largest value.',
    min: 'The smallest value.',
  }),
});
const GroupSort = builder.enumType('GroupSort', {
  description: 'STORES = number of stores in the group; REVENUE and VISITS = the group metric.',
  values: upperCaseValues(GROUP_SORTS, {
    stores: 'Most stores first (the default).',
    revenue: 'Highest revenue metric (metrics.monthlyRevenueUsd) first.',
    visits: 'Highest visits metric (metrics.monthlyVisits) first.',
  }),
});
const StoreGroupOrderField = builder.enumType('StoreGroupOrderField', {
  description: 'What orderBy orders groups by. REST spells each in lower case (sort=stores).',
  values: upperCaseValues(GROUP_SORTS, {
    stores: 'The number of stores in the group.',
    revenue: "The groupMetric of the revenue band's high end.",
    visits: 'The groupMetric of monthly visits.',
  }),
});
const StoreGroupOrder = builder.inputType('StoreGroupOrder', {
  description: 'The order of grouped rows: a field and a direction; ties by key.',
  fields: (t) => ({
    field: t.field({
      type: StoreGroupOrderField,
      required: true,
      description: 'What to order by.',
    }),
    direction: t.field({
      type: OrderDirectionEnum,
      defaultValue: 'desc',
      description: 'DESC (default): largest first.',
    }),
  }),
});

/** The groups' order: orderBy, else the deprecated sort, else STORES DESC. */
function groupOrder(
  orderBy: { field: GroupSortValue; direction?: OrderDirection | null } | null | undefined,
  sort: GroupSortValue | null | undefined,
): { sort: GroupSortValue; direction: OrderDirection } {
  if (orderBy && sort) {
    const rule = 'give orderBy or sort, not both';
    throw badRequest(`Invalid orderBy: ${rule}`, { parameter: 'orderBy', rule });
  }
  return { sort: orderBy?.field ?? sort ?? 'stores', direction: orderBy?.direction ?? 'desc' };
}

const GroupMetrics = builder.objectRef<StoreGroupRow>('GroupMetrics').implement({
  description: 'The groupMetric aggregate of the stores in the group (modeled figures).',
  fields: (t) => ({
    monthlyRevenueUsdHigh: t.exposeFloat('monthlyRevenueUsd', {
      description: "Aggregate of the revenue band's high end, USD.",
    }),
    monthlyRevenueUsd: t.exposeFloat('monthlyRevenueUsd', {
      description: "Aggregate of the revenue band's high end, USD.",
      deprecationReason:
        'Use monthlyRevenueUsdHigh: monthlyRevenueUsd names a RevenueBand {low, high} on Store and HistoryPoint.',
    }),
    monthlyVisits: t.exposeFloat('monthlyVisits', {
      description: 'Aggregate of modeled monthly visits.',
    }),
  }),
});

const StoreGroup = builder.objectRef<StoreGroupRow>('StoreGroup').implement({
  description: `A cohort of stores sharing the grouping value(s). Stores without a value are grouped under "${UNKNOWN_GROUP}".`,
  fields: (t) => ({
    key: t.exposeString('key', { description: 'parent, or "parent / leaf" with groupBy2.' }),
    parent: t.exposeString('parent', {
      nullable: true,
      description: 'Value of groupBy (null for stores without one).',
    }),
    leaf: t.exposeString('leaf', { nullable: true, description: 'Value of groupBy2.' }),
    stores: t.exposeInt('stores', { description: 'Number of stores in the group.' }),
    metrics: t.field({
      type: GroupMetrics,
      description: "The group's modeled figures, aggregated with the groupMetric argument.",
      resolve: (row) => row,
    }),
  }),
});

const StoreGroupConnection = builder.connectionObject(
  {
    type: StoreGroup,
    name: 'StoreGroupConnection',
    description:
      'A page of store groups (Query.storeGroups); totalCount counts groups, not stores.',
    fields: (t) => ({
      filterSuggestions: t.field({
        type: [FilterSuggestionRef],
        description:
          'For each filter value no store of the catalog has, the nearest valid values (see StoreSearchConnection).',
        resolve: (connection) =>
          (connection as { filterSuggestions?: FilterSuggestion[] }).filterSuggestions ?? [],
      }),
    }),
  },
  { name: 'StoreGroupEdge', description: 'One group of stores, with its cursor.' },
);

builder.queryField('storeGroups', (t) =>
  t.field({
    extensions: rules({ quota: 'storeSearches', cache: 'public' }),
    type: StoreGroupConnection,
    description:
      'The filtered stores rolled up by groupBy (and groupBy2). totalCount = number of groups. Filtered groups are ' +
      `computed live; without a filter they come from rollups refreshed every ${ROLLUP_REFRESH_MINUTES} minutes and after ` +
      `each seed, never older than ${ROLLUP_MAX_AGE_MINUTES} minutes (computed live past that).`,
    args: {
      ...pageArgs,
      filter: t.arg({
        type: StoreFilter,
        description: 'Which stores are grouped (as Query.stores filters them); omit for all.',
      }),
      groupBy: t.arg({
        type: StoreGrouping,
        required: true,
        description: 'First grouping: each row is one value of it (StoreGroup.parent).',
      }),
      groupBy2: t.arg({
        type: StoreGrouping,
        description:
          'Optional second grouping inside the first (StoreGroup.leaf); must differ from groupBy.',
      }),
      groupMetric: t.arg({
        type: GroupMetric,
        defaultValue: 'median',
        description: "How each group's revenue and visits are aggregated.",
      }),
      orderBy: t.arg({
        type: StoreGroupOrder,
        description: 'The order (default: STORES, DESC).',
      }),
      sort: t.arg({
        type: GroupSort,
        deprecationReason: 'Use orderBy: {field, direction}.',
        description: 'The order, as REST spells it; orderBy replaces it.',
      }),
    },
    validate: [
      (args) => args.groupBy2 == null || args.groupBy2 !== args.groupBy,
      { message: 'must differ from groupBy', path: ['groupBy2'] },
    ],
    resolve: async (_root, args, ctx, info) => {
      const pool = ctx.services.db.read;
      const filter = await resolveStoreFilter(pool, args.filter);
      const [connection, suggestions] = await Promise.all([
        pagedConnection(args, (window) =>
          storeGroups(
            pool,
            {
              filter,
              groupBy: args.groupBy,
              groupBy2: args.groupBy2,
              metric: args.groupMetric ?? 'median',
              ...groupOrder(args.orderBy, args.sort),
            },
            window,
          ),
        ),
        selectedFieldNames(info).has('filterSuggestions')
          ? filterSuggestions(pool, filter)
          : undefined,
      ]);
      return { ...connection, filterSuggestions: suggestions };
    },
  }),
);
