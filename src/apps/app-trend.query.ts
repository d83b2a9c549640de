// Query.appTrend (GET /v1/apps/{slug}/trend) and Query.appRanking (GET /v1/analytics/apps): read from
// the trend rollups (app-trend-rollups.ts), never aggregated from store_app_periods per request.
import type { StringValidationOptions } from '@pothos/plugin-zod';
import { rules } from '../access/field-rules.ts';
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { arrayConnection } from '../graphql/pagination.ts';
import { notFound } from '../platform/errors.ts';
import { appBySlug } from './app.loaders.ts';
import {
  readAppRanking,
  readAppTrend,
  TREND_DEFAULT_MONTHS,
  TREND_MAX_MONTHS,
} from './app-trend.sql.ts';
import { AppRankConnection, AppTrend } from './app-trend.type.ts';

const name: StringValidationOptions = {
  type: 'string',
  minLength: [1, { message: 'must not be empty' }],
  maxLength: 100,
};
const monthsRule = `must be an integer from 1 to ${TREND_MAX_MONTHS}`;

builder.queryField('appTrend', (t) =>
  t.field({
    extensions: rules({ quota: 'productAppLookups', cache: 'public' }),
    type: AppTrend,
    nullable: true,
    description:
      "An app's installs, uninstalls, install base and share of the observed stores per calendar month (UTC), oldest first.",
    args: {
      slug: t.arg.string({
        required: true,
        description: "The app's slug in the app store, e.g. judgeme.",
        validate: { ...name, maxLength: 200 },
      }),
      months: t.arg.int({
        defaultValue: TREND_DEFAULT_MONTHS,
        description: `Months ending with the current one: 1 to ${TREND_MAX_MONTHS}.`,
        validate: {
          type: 'number',
          int: true,
          min: [1, { message: monthsRule }],
          max: [TREND_MAX_MONTHS, { message: monthsRule }],
        },
      }),
      vertical: t.arg.string({
        description: 'Only stores of this vertical (case-insensitive).',
        validate: name,
      }),
      countryCode: t.arg.string({
        description: 'Only stores of this country: ISO 3166-1 alpha-2 code, case-insensitive.',
        validate: {
          type: 'string',
          regex: [/^[A-Za-z]{2}$/, { message: 'must be a 2-letter ISO country code' }],
        },
      }),
    },
    resolve: async (_root, { slug, months, vertical, countryCode }, ctx) => {
      const app = await appBySlug(ctx).load(slug.trim().toLowerCase());
      if (!app) throw notFound(`No app ${slug} in the catalog.`, { slug });
      return {
        app,
        vertical: vertical ?? null,
        countryCode: countryCode?.toUpperCase() ?? null,
        months: await readAppTrend(ctx.services.db.read, app.id, {
          months: months ?? TREND_DEFAULT_MONTHS,
          vertical,
          countryCode,
        }),
      };
    },
  }),
);

builder.queryField('appRanking', (t) =>
  t.field({
    extensions: rules({ quota: 'storeSearches', cache: 'public' }),
    type: AppRankConnection,
    description:
      'The apps of one app category (case-insensitive; an unknown one has none), largest install base first, ' +
      'with their share of the observed stores and their net change over 90 days.',
    args: {
      ...pageArgs,
      category: t.arg.string({
        required: true,
        description: 'An app store category, e.g. Reviews (App.category).',
        validate: name,
      }),
    },
    resolve: async (_root, { category, ...args }, ctx) =>
      arrayConnection(args, await readAppRanking(ctx.services.db.read, category.trim())),
  }),
);
