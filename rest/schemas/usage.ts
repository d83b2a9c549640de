import { z } from 'zod';

export const UsageLimit = z
  .strictObject({
    name: z.string().meta({
      description:
        'perMinute (the rate), perKeyDaily (the per-key daily ceiling) or a daily bucket of the account (storeSearches, ' +
        'storeLookups, productSearches, productAppLookups, scrapeRequests), shared with the web app: the names of the RateLimit headers.',
    }),
    window: z.enum(['minute', 'day']).meta({ description: 'A day is the UTC day.' }),
    limit: z.number().int(),
    used: z.number().int().meta({
      description: 'Counted in the window so far, this request included where it counts.',
    }),
    remaining: z
      .number()
      .int()
      .meta({ description: 'limit - used; the r of the RateLimit header.' }),
    resetSeconds: z
      .number()
      .int()
      .meta({ description: 'Seconds until the window renews; the t of the RateLimit header.' }),
  })
  .meta({ id: 'UsageLimit' });

export const Usage = z
  .strictObject({
    plan: z.string().meta({
      description:
        'starter, pro, or open-dev (no key: limited per client address, no daily buckets).',
    }),
    limits: z.array(UsageLimit),
  })
  .meta({ id: 'Usage', description: "The calling key's limits today." });
