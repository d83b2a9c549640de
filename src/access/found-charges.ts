// The charge of a root field declared `unitsFound` (field-rules.ts): its units are the items it
// found, known only once it has looked, so its resolver charges them here, after its arguments were
// validated and before it answers. All of them or none: a bucket that cannot pay for every item
// refuses the call with rate_limited and charges nothing.
import { ACCESS_IN_CONTEXT, type Access } from './access.ts';
import { sendRateLimitHeaders } from './headers.ts';
import type { QuotaBucket } from './plans.ts';
import { isDataPrincipal, principalOf } from './principal.ts';
import type { Answer } from './provisional-charges.ts';
import { RateLimitedError, type LimitState } from './quota.ts';

interface FoundContext {
  req?: object;
  reply?: { header(name: string, value: string): unknown; raw?: Answer };
  [ACCESS_IN_CONTEXT]?: Access;
}

/** Charges `units` items to `bucket` (the rate and per-key ceiling counted the call before it ran). */
export async function chargeFound(
  context: object,
  bucket: QuotaBucket,
  units: number,
): Promise<void> {
  const ctx = context as FoundContext;
  const access = ctx[ACCESS_IN_CONTEXT];
  const principal = principalOf(ctx.req);
  if (!access || !isDataPrincipal(principal) || units <= 0) return;
  try {
    sendRateLimitHeaders(
      ctx,
      await access.admit(principal, { units: 0, buckets: { [bucket]: units } }, ctx.reply?.raw),
    );
  } catch (error) {
    if (error instanceof RateLimitedError) sendRateLimitHeaders(ctx, error.limits);
    throw error;
  }
}
