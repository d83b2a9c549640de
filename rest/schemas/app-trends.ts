import { z } from 'zod';
import { App } from './apps.ts';
import { listOf, Month } from './common.ts';

const Share = z.number().nullable();

export const AppTrendMonth = z
  .strictObject({
    month: Month,
    installs: z.number().int().meta({
      description:
        'Stores seen installing the app this month: an earlier observation saw them without it.',
    }),
    newlyObserved: z.number().int().meta({
      description:
        'Stores first observed this month already running the app: they join the install base, not the installs.',
    }),
    uninstalls: z.number().int().meta({
      description: 'Stores first seen without the app this month after running it.',
    }),
    net: z.number().int().meta({ description: 'installs - uninstalls.' }),
    installBase: z
      .number()
      .int()
      .meta({
        description:
          "Stores running the app at the month's end (now, for the current month): the previous month's " +
          'installBase + installs + newlyObserved - uninstalls.',
      }),
    observedStores: z.number().int().meta({
      description:
        "Catalog stores first seen by the month's end, under the same vertical and country.",
    }),
    share: Share.meta({
      description: 'installBase / observedStores, 0 to 1; null while no store is observed.',
    }),
  })
  .meta({
    id: 'AppTrendMonth',
    description: 'One calendar month (UTC) of an app on the observed catalog.',
  });

export const AppTrend = z
  .strictObject({
    app: App,
    vertical: z.string().nullable().meta({
      description: 'The vertical the counts are narrowed to, as asked; null for every vertical.',
    }),
    countryCode: z.string().nullable().meta({
      description: 'The country the counts are narrowed to (upper case); null for every country.',
    }),
    months: z
      .array(AppTrendMonth)
      .meta({ description: 'Oldest month first, the current one last.' }),
  })
  .meta({ id: 'AppTrend', description: "An app's install trend, month by month." });

export const AppRank = z
  .strictObject({
    app: App,
    installBase: z.number().int().meta({ description: 'Catalog stores running the app now.' }),
    share: Share.meta({
      description: 'installBase / the catalog stores observed, 0 to 1; null on an empty catalog.',
    }),
    installs90d: z.number().int().meta({
      description: 'Stores seen installing the app over the last 90 UTC days, today included.',
    }),
    uninstalls90d: z
      .number()
      .int()
      .meta({ description: 'Stores first seen without it over the same days.' }),
    netChange90d: z.number().int().meta({ description: 'installs90d - uninstalls90d.' }),
  })
  .meta({
    id: 'AppRank',
    description: 'An app of a category with its install base and 90-day net change.',
  });

export const AppRankList = listOf(
  AppRank,
  'AppRankList',
  'A page of apps, largest install base first.',
);
