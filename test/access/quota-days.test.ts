// Daily quotas follow the UTC day the request arrives on: a charge just before midnight counts in
// that day's bucket and renews at midnight; the next request, after it, counts in the new day's.
import { describe, expect, it } from 'vitest';
import { InProcessCounters } from '../../src/access/in-process-counters.ts';
import { resolvePlans } from '../../src/access/plans.ts';
import { Quotas } from '../../src/access/quota.ts';

const plans = resolvePlans(
  JSON.stringify({
    starter: {
      perMinute: 1_000,
      perKeyDaily: 2,
      daily: { storeSearches: 5, storeLookups: 5, productSearches: 5, productAppLookups: 5 },
    },
  }),
);
const principal = {
  kind: 'key',
  keyId: 7,
  plan: 'starter',
  accountExternalId: 'acct_days',
  scopes: [],
} as const;
const lookup = { units: 1, buckets: { storeLookups: 1 } };

describe('daily quotas by UTC day', () => {
  it("renews a key's daily ceiling at UTC midnight and says how far away midnight is", async () => {
    let now = new Date('2026-11-26T23:59:58.500Z');
    const counters = new InProcessCounters();
    const quotas = new Quotas(counters, plans, () => now);
    const first = await quotas.charge(principal as never, lookup);
    expect(first.find((l) => l.policy === 'perKeyDaily')).toMatchObject({
      remaining: 1,
      resetSeconds: 2,
    });
    await quotas.charge(principal as never, lookup);
    await expect(
      Promise.resolve().then(() => quotas.charge(principal as never, lookup)),
    ).rejects.toMatchObject({ code: 'rate_limited' });

    now = new Date('2026-11-27T00:00:00.000Z');
    const nextDay = await quotas.charge(principal as never, lookup);
    expect(nextDay.find((l) => l.policy === 'perKeyDaily')).toMatchObject({
      remaining: 1,
      resetSeconds: 86_400,
    });
    expect(nextDay.find((l) => l.policy === 'storeLookups')).toMatchObject({
      remaining: 4,
      resetSeconds: 86_400,
    });

    // a clock that goes back (a test's, or a corrected one) reads the day it names
    now = new Date('2026-11-26T12:00:00.000Z');
    await expect(
      Promise.resolve().then(() => quotas.charge(principal as never, lookup)),
    ).rejects.toMatchObject({ code: 'rate_limited' });
    await counters.close();
  });
});
