import { z } from 'zod';
import { listOf } from './common.ts';

export const App = z
  .strictObject({
    slug: z.string().meta({ description: "Identifier from the platform's app store." }),
    name: z.string(),
    developer: z.string().nullable(),
    category: z.string().nullable(),
    pricing: z.string().nullable(),
    rating: z.number().nullable(),
    reviewCount: z.number().int(),
    appStoreUrl: z.string().nullable(),
    installCount: z
      .number()
      .int()
      .meta({ description: 'Catalog stores observed running the app.' }),
  })
  .meta({ id: 'App' });

/** How many of the busiest stores running an app GET /v1/apps/{slug} shows. */
export const INSTALL_BASE_SAMPLE_SIZE = 10;

export const AppList = listOf(App, 'AppList', 'A page of apps.');
