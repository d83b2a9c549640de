import { GetUsageDocument } from '../../generated/operations.ts';
import { defineRoute, noPathParams, noQuery } from '../../route.ts';
import { Usage } from '../../schemas/usage.ts';
import { fromGraphqlEnum } from '../../../src/graphql/enums.ts';

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
