// Rate-limit headers of every data response. X-RateLimit-Limit / -Remaining / -Reset describe the
// most constraining limit this request counted against (fewest requests left; on a tie, the longer
// wait), so a client that waits X-RateLimit-Reset seconds at Remaining 0 always gets through.
// RateLimit-Policy and RateLimit (IETF draft-ietf-httpapi-ratelimit-headers, structured fields)
// list every limit by name: perMinute, perKeyDaily and the account's daily buckets.
import { DEFAULT_PLANS, type QuotaBucket } from './plans.ts';
import type { LimitState } from './quota.ts';

/** The header names (spec part 8 names only the X-RateLimit- prefix; these are our decision). */
export const RATE_LIMIT_HEADER_NAMES = {
  limit: 'X-RateLimit-Limit',
  remaining: 'X-RateLimit-Remaining',
  reset: 'X-RateLimit-Reset',
  policy: 'RateLimit-Policy',
  ietf: 'RateLimit',
} as const;

export function mostConstraining(limits: readonly LimitState[]): LimitState | undefined {
  return limits.reduce<LimitState | undefined>((worst, limit) => {
    if (!worst) return limit;
    if (limit.remaining !== worst.remaining)
      return limit.remaining < worst.remaining ? limit : worst;
    return limit.resetSeconds > worst.resetSeconds ? limit : worst;
  }, undefined);
}

/** Sets the rate-limit headers of `limits` on the reply of a GraphQL context, when it has one (not over WebSocket). */
export function sendRateLimitHeaders(
  context: { reply?: { header(name: string, value: string): unknown } },
  limits: readonly LimitState[],
): void {
  const reply = context.reply;
  if (!reply) return;
  const headers = rateLimitHeaders(limits);
  for (const name in headers) reply.header(name, headers[name]!);
}

export function rateLimitHeaders(limits: readonly LimitState[]): Record<string, string> {
  const shown = mostConstraining(limits);
  if (!shown) return {};
  // on every data answer: one pass, plain concatenation
  let policy = '';
  let standing = '';
  for (const l of limits) {
    const separator = policy === '' ? '' : ', ';
    policy += `${separator}"${l.policy}";q=${l.limit};w=${l.windowSeconds}`;
    standing += `${separator}"${l.policy}";r=${l.remaining};t=${l.resetSeconds}`;
  }
  return {
    [RATE_LIMIT_HEADER_NAMES.limit]: String(shown.limit),
    [RATE_LIMIT_HEADER_NAMES.remaining]: String(shown.remaining),
    [RATE_LIMIT_HEADER_NAMES.reset]: String(shown.resetSeconds),
    [RATE_LIMIT_HEADER_NAMES.policy]: policy,
    [RATE_LIMIT_HEADER_NAMES.ietf]: standing,
  };
}

/**
 * The headers of a starter key's first request of the day to a route of `bucket`, an hour before
 * UTC midnight: the examples the documentation shows (test/self-description/recipes.test.ts compares
 * them with a real answer's).
 */
export function exampleRateLimitHeaders(
  bucket: QuotaBucket = 'storeSearches',
): Record<string, string> {
  const plan = DEFAULT_PLANS.starter;
  const secondsLeftToday = 3_600;
  const day = 86_400;
  return rateLimitHeaders([
    {
      policy: 'perMinute',
      limit: plan.perMinute,
      remaining: plan.perMinute - 1,
      resetSeconds: 60,
      windowSeconds: 60,
    },
    {
      policy: 'perKeyDaily',
      limit: plan.perKeyDaily!,
      remaining: plan.perKeyDaily! - 1,
      resetSeconds: secondsLeftToday,
      windowSeconds: day,
    },
    {
      policy: bucket,
      limit: plan.daily![bucket],
      remaining: plan.daily![bucket] - 1,
      resetSeconds: secondsLeftToday,
      windowSeconds: day,
    },
  ]);
}
