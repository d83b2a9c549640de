import { GetUsageDocument } from '../generated/operations.ts';
import { defineRoute, noPathParams, noQuery } from '../route.ts';
import { Usage } from '../schemas/usage.ts';

export const getUsage = defineRoute({
  operationId: 'getUsage',
  method: 'GET',
  path: '/v1/usage',
  tag: 'Usage',
  summary: "The key's limits today: each bucket's limit, used, remaining and reset",
  description:
    'Every limit the key counts against, by the names the RateLimit and RateLimit-Policy headers use: perMinute, ' +
    "perKeyDaily and each daily bucket of the key's account (shared with the web app). The call counts like a data " +
    'request without a bucket (one unit of perMinute and of perKeyDaily), and the figures are read after it was ' +
    'counted, so they agree with its own rate-limit headers. In open-dev mode: perMinute per client address only.',
  document: GetUsageDocument,
  pathParams: noPathParams,
  query: noQuery,
  canBeNotFound: false,
  variables: () => ({}),
  response: Usage,
  respond: (data) => data.usage,
  example: '/v1/usage',
});
