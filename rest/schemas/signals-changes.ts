import { z } from 'zod';
import { Change } from './changes.ts';
import { DateTime, listOf, Page } from './common.ts';

export const SignalApp = z
  .strictObject({
    slug: z.string().meta({ description: "Identifier from the platform's app store." }),
    name: z.string(),
    developer: z.string().nullable(),
    category: z.string().nullable(),
    pricing: z.string().nullable(),
    rating: z.number().nullable(),
    appStoreUrl: z.string().nullable(),
    installCount: z
      .number()
      .int()
      .meta({ description: 'Catalog stores observed running the app.' }),
    firstSeenAt: DateTime.meta({
      description: 'The first observation (scrape or probe) that saw the app on this store.',
    }),
    lastSeenAt: DateTime.meta({ description: 'The latest observation that saw it.' }),
  })
  .meta({ id: 'SignalApp', description: 'An app on a watched store.' });

export const SignalAppList = listOf(
  SignalApp,
  'SignalAppList',
  'The whole app stack of the watched store, most recently installed first (page.hasMore is always false).',
);

export const SignalAppChangeList = listOf(
  Change,
  'SignalAppChangeList',
  "Installs (app_installed) and removals (app_uninstalled) of apps on the watched store, newest first: the store's whole observed history.",
);

export const SignalProductChangeList = z
  .strictObject({
    data: z.array(Change),
    page: Page,
    meta: z.strictObject({
      watchedSince: DateTime.meta({
        description: 'When the watch was created: the list holds changes detected from then on.',
      }),
    }),
  })
  .meta({
    id: 'SignalProductChangeList',
    description:
      'Price changes, new and removed SKUs of the watched store since the watch was created, newest first.',
  });
