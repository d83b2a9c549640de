// The environment the benches start the service with: as `npm start` would on the bench's database,
// as an API process (WORKER_IN_PROCESS=false: the jobs' maintenance runs once, before the timed
// runs, bench/rollups.ts), with the bench key's limits lifted through the documented
// PLAN_LIMITS_JSON override; the defaults stay what they are.
const UNLIMITED = 1_000_000_000;

/**
 * Every limit of the pro plan lifted, so a run measures serving, not refusing; `perKeyDaily` far
 * above a run's use rather than none keeps the per-key daily counts (the cluster soak checks them).
 */
export function unlimitedPlanLimits({ countPerKey = false } = {}): string {
  return JSON.stringify({
    pro: {
      perMinute: UNLIMITED,
      perKeyDaily: countPerKey ? UNLIMITED : null,
      daily: {
        storeSearches: UNLIMITED,
        storeLookups: UNLIMITED,
        productSearches: UNLIMITED,
        productAppLookups: UNLIMITED,
        scrapeRequests: UNLIMITED,
      },
    },
  });
}

export function benchServiceEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    SEED_STORES: '0',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    PLAN_LIMITS_JSON: unlimitedPlanLimits(),
    WORKER_IN_PROCESS: 'false',
  };
}
