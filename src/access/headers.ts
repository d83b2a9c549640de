// Rate-limit headers of every data response. X-RateLimit-Limit / -Remaining / -Reset describe the
// most constraining limit this request counted against (fewest requests left; on a tie, the longer
// wait), so a client that waits X-RateLimit-Reset seconds at Remaining 0 always gets through.
// RateLimit-Policy and RateLimit (IETF draft-ietf-httpapi-ratelimit-headers, structured fields)
// list every limit by name: perMinute, perKeyDaily and the account's daily buckets.
import { RATE_LIMIT_HEADER_NAMES } from '../../rest/openapi/rate-limit-headers.ts';
import type { LimitState } from './quota.ts';

export function mostConstraining(limits: readonly LimitState[]): LimitState | undefined {
  return limits.reduce<LimitState | undefined>((worst, limit) => {
    if (!worst) return limit;
    if (limit.remaining !== worst.remaining) return limit.remaining < worst.remaining ? limit : worst;
    return limit.resetSeconds > worst.resetSeconds ? limit : worst;
  }, undefined);
}

export function rateLimitHeaders(limits: readonly LimitState[]): Record<string, string> {
  const shown = mostConstraining(limits);
  if (!shown) return {};
  return {
    [RATE_LIMIT_HEADER_NAMES.limit]: String(shown.limit),
    [RATE_LIMIT_HEADER_NAMES.remaining]: String(shown.remaining),
    [RATE_LIMIT_HEADER_NAMES.reset]: String(shown.resetSeconds),
    [RATE_LIMIT_HEADER_NAMES.policy]: limits.map((l) => `"${l.policy}";q=${l.limit};w=${l.windowSeconds}`).join(', '),
    [RATE_LIMIT_HEADER_NAMES.ietf]: limits.map((l) => `"${l.policy}";r=${l.remaining};t=${l.resetSeconds}`).join(', '),
  };
}
