// Query.analyticsOverview, verticalStats, countryStats, movers (GET /v1/analytics/*).
import type { StringValidationOptions } from '@pothos/plugin-zod';
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { arrayConnection, offsetConnection } from '../graphql/pagination.ts';
import { primeStores } from '../stores/store.loaders.ts';
import { catalogTotals, countryStats, productsTracked, verticalStats } from './analytics.sql.ts';
import {
  AnalyticsOverview,
  CountryStatConnection,
  MoverConnection,
  MoverDirectionEnum,
  MoverMetricEnum,
  VerticalStatConnection,
} from './analytics.type.ts';
import { countMovers, findMovers } from './movers.sql.ts';
import { rules } from '../access/field-rules.ts';

const TOP = 5;
const verticalName: StringValidationOptions = {
  type: 'string',
  minLength: [1, { message: 'must not be empty' }],
  maxLength: 100,
};

builder.queryField('analyticsOverview', (t) =>
  t.field({
    extensions: rules({ quota: 'storeSearches', cache: 'public' }),
    type: AnalyticsOverview,
    description:
      'Coverage of the catalog (GET /v1/analytics/overview): store, product and app counts, averages, top verticals and countries.',
    resolve: async (_root, _args, ctx) => {
      const pool = ctx.services.db.read;
      const [totals, products, verticals, countries] = await Promise.all([
        catalogTotals(pool),
        productsTracked(pool),
        verticalStats(pool),
        countryStats(pool),
      ]);
      return {
        totals,
        productsTracked: products,
        topVerticals: verticals.slice(0, TOP),
        topCountries: countries.slice(0, TOP),
        generatedAt: totals.computedAt ?? new Date(),
      };
    },
  }),
);

builder.queryField('verticalStats', (t) =>
  t.field({
    extensions: rules({ quota: 'storeSearches', cache: 'public' }),
    type: VerticalStatConnection,
    args: pageArgs,
    description:
      'Store count and summed modeled revenue, visits and ad spend per vertical, most stores first.',
    resolve: async (_root, args, ctx) =>
      arrayConnection(args, await verticalStats(ctx.services.db.read)),
  }),
);

builder.queryField('countryStats', (t) =>
  t.field({
    extensions: rules({ quota: 'storeSearches', cache: 'public' }),
    type: CountryStatConnection,
    description:
      'Market size per country, of the whole catalog or inside one vertical; most stores first.',
    args: {
      ...pageArgs,
      vertical: t.arg.string({
        description: 'Only stores of this vertical (case-insensitive); omit for all.',
        validate: verticalName,
      }),
    },
    resolve: async (_root, { vertical, ...args }, ctx) =>
      arrayConnection(args, await countryStats(ctx.services.db.read, vertical)),
  }),
);

builder.queryField('movers', (t) =>
  t.field({
    extensions: rules({ quota: 'storeSearches', cache: 'public' }),
    type: MoverConnection,
    description: 'Stores growing (up) or shrinking (down) most over 30 days, by visits or revenue.',
    args: {
      ...pageArgs,
      metric: t.arg({
        type: MoverMetricEnum,
        required: true,
        description: 'Rank by the change of visits or of revenue.',
      }),
      direction: t.arg({
        type: MoverDirectionEnum,
        required: true,
        description: 'up: growing most; down: shrinking most.',
      }),
      minPct: t.arg.float({
        description:
          'Minimum size of the change, percent (a magnitude: 10 means at least +10 % up or -10 % down).',
        validate: { type: 'number', min: [0, { message: 'must not be negative' }] },
      }),
      vertical: t.arg.string({
        description: 'Only stores of this vertical (case-insensitive); omit for all.',
        validate: verticalName,
      }),
    },
    resolve: (_root, { metric, direction, minPct, vertical, ...args }, ctx) => {
      const query = { metric, direction, minPct, vertical };
      return offsetConnection(
        args,
        async (window) => {
          const movers = await findMovers(ctx.services.db.read, query, window);
          primeStores(
            ctx,
            movers.map((m) => m.store),
          );
          return movers.map((m) => ({ ...m, metric }));
        },
        () => countMovers(ctx.services.db.read, query),
      );
    },
  }),
);
