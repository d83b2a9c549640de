// Query.usage: the calling key's limits today, for GET /v1/usage. The call itself never counts and
// is never refused by a limit (as GitHub's /rate_limit), so a rate-limited caller can still ask how
// long to wait; its rate-limit headers show the rate and per-key ceiling as they stand.
import { builder } from '../graphql/builder.ts';
import { upperCaseValues } from '../graphql/enums.ts';
import type { GraphqlContext } from '../graphql/context.ts';
import type { CallerContext } from '../access/admission.ts';
import { missingKey } from '../access/authenticate.ts';
import { rules } from '../access/field-rules.ts';
import { rateLimitHeaders } from '../access/headers.ts';
import { isDataPrincipal } from '../access/principal.ts';
import type { LimitState } from '../access/quota.ts';

type Standing = LimitState & { used: number };

const UsageWindowEnum = builder.enumType('UsageWindow', {
  description: 'The window a limit counts in: a minute, or the UTC day.',
  values: upperCaseValues(['minute', 'day'], {
    minute: 'A one-minute window (the perMinute rate).',
    day: 'The UTC day (the per-key ceiling and the daily buckets).',
  }),
});

const UsageLimitRef = builder.objectRef<Standing>('UsageLimit').implement({
  description: 'One limit the key counts against, as the RateLimit headers name it.',
  fields: (t) => ({
    name: t.exposeString('policy', {
      description:
        'perMinute (the rate), perKeyDaily (the per-key daily ceiling) or a daily bucket of the account, shared with the web app.',
    }),
    window: t.field({
      type: UsageWindowEnum,
      description: 'Whether the limit counts per minute or per UTC day.',
      resolve: (limit) => (limit.windowSeconds === 60 ? 'minute' : 'day'),
    }),
    limit: t.exposeInt('limit', { description: 'Requests allowed in the window.' }),
    used: t.exposeInt('used', {
      description: 'Requests counted in the window so far, this one included when it counts here.',
    }),
    remaining: t.exposeInt('remaining', { description: 'limit - used.' }),
    resetSeconds: t.exposeInt('resetSeconds', { description: 'Seconds until the window renews.' }),
  }),
});

const UsageRef = builder.objectRef<{ plan: string; limits: Standing[] }>('Usage').implement({
  description: "The calling key's limits today.",
  fields: (t) => ({
    plan: t.exposeString('plan', {
      description:
        'starter, pro, or open-dev (no key: limited per client address, no daily buckets).',
    }),
    limits: t.field({
      type: [UsageLimitRef],
      description: 'Every limit the key counts against, the rate first.',
      resolve: (usage) => usage.limits,
    }),
  }),
});

builder.queryField('usage', (t) =>
  t.field({
    extensions: rules({ free: true }),
    type: UsageRef,
    description:
      "The calling key's per-minute rate, per-key daily ceiling and the account's daily buckets: limit, used, remaining and reset.",
    resolve: async (_root, _args, ctx) => {
      const context = ctx as GraphqlContext &
        Omit<CallerContext, 'reply'> & {
          reply?: { headers(values: Record<string, string>): unknown };
        };
      const { admission, principal } = context;
      if (!admission || !isDataPrincipal(principal)) throw missingKey();
      const limits = await admission.quotas.standing(principal);
      // what a data request without a bucket would count against
      context.reply?.headers(
        rateLimitHeaders(
          limits.filter((limit) => limit.policy === 'perMinute' || limit.policy === 'perKeyDaily'),
        ),
      );
      return { plan: admission.resultWindowOf(principal).planName, limits };
    },
  }),
);
