import { GetUsageDocument } from '../../generated/operations.ts';
import { defineRoute, noPathParams, noQuery, type RestRoute } from '../../route.ts';
import { fromGraphqlEnum } from '../../../src/graphql/enums.ts';
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

export const getUsage = defineRoute({
  operationId: 'getUsage',
  method: 'GET',
  path: '/v1/usage',
  tag: 'Usage',
  summary: "The key's limits today: each bucket's limit, used, remaining and reset",
  description:
    'Every limit the key counts against, by the names the RateLimit and RateLimit-Policy headers use: perMinute, ' +
    "perKeyDaily and each daily bucket of the key's account (shared with the web app). The call itself is never " +
    'counted and never refused by a limit, so it answers while the key is rate-limited (its rate-limit headers show ' +
    'perMinute and perKeyDaily as they stand). In open-dev mode: perMinute per client address only.',
  document: GetUsageDocument,
  pathParams: noPathParams,
  query: noQuery,
  canBeNotFound: false,
  variables: () => ({}),
  response: Usage,
  respond: ({ usage }) => ({
    ...usage,
    limits: usage.limits.map((l) => ({ ...l, window: fromGraphqlEnum(l.window) })),
  }),
  example: '/v1/usage',
});

/** The usage route, in the order docs.md and the OpenAPI description list them. */
export const usageRoutes: readonly RestRoute[] = [getUsage];
