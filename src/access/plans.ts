// The plans table: what each plan may do through the API, in one place. Daily buckets are the web
// app's own quota buckets (spec part 5.6, part 8), counted per account per UTC day; the per-key daily
// ceiling and per-minute rate are API-only limits; the result window is how deep a list may be read
// (offset + limit), the same depth the web app shows that plan. PLAN_LIMITS_JSON overrides any cell,
// e.g. {"starter":{"perMinute":120,"daily":{"storeSearches":1000}}}.
import { z } from 'zod';

export const QUOTA_BUCKETS = [
  'storeSearches',
  'storeLookups',
  'productSearches',
  'productAppLookups',
  'scrapeRequests',
] as const;
export type QuotaBucket = (typeof QUOTA_BUCKETS)[number];

export const QUOTA_BUCKET_DESCRIPTIONS: Record<QuotaBucket, string> = {
  storeSearches: 'store searches, grouped roll-ups, comparisons and market analytics',
  storeLookups: 'one store profile and its products, history, traffic and apps',
  productSearches: 'product searches and the change feeds',
  productAppLookups: 'one product, and app searches and lookups',
  scrapeRequests: 'scrape requests, one per URL of a bulk request',
};

export const PAID_PLANS = ['starter', 'pro'] as const;
export type AccountPlan = 'free' | (typeof PAID_PLANS)[number];
/** open-dev mode: no keys exist, requests come without one (never in production) */
export type PlanName = AccountPlan | 'openDev';

export interface PlanLimits {
  /** whether keys may be minted for (and used by) accounts on this plan */
  apiAccess: boolean;
  /** per account and UTC day; null = not counted (open-dev requests have no account) */
  daily: Record<QuotaBucket, number> | null;
  /** requests per key and UTC day, across buckets; null = none */
  perKeyDaily: number | null;
  /** requests per key (open-dev: per client address) and minute */
  perMinute: number;
  /** the deepest item a list may reach: offset + limit at most this */
  resultWindow: number;
  /** saved searches that alert (POST /v1/alerts) an account may keep */
  alerts: number;
}

export const DEFAULT_PLANS: Readonly<Record<PlanName, PlanLimits>> = {
  free: {
    apiAccess: false,
    daily: {
      storeSearches: 25,
      storeLookups: 100,
      productSearches: 25,
      productAppLookups: 100,
      scrapeRequests: 5,
    },
    perKeyDaily: 0,
    perMinute: 0,
    resultWindow: 100,
    alerts: 0,
  },
  starter: {
    apiAccess: true,
    daily: {
      storeSearches: 500,
      storeLookups: 2_000,
      productSearches: 500,
      productAppLookups: 2_000,
      scrapeRequests: 100,
    },
    perKeyDaily: 5_000,
    perMinute: 60,
    resultWindow: 1_000,
    alerts: 10,
  },
  pro: {
    apiAccess: true,
    daily: {
      storeSearches: 5_000,
      storeLookups: 20_000,
      productSearches: 5_000,
      productAppLookups: 20_000,
      scrapeRequests: 1_000,
    },
    perKeyDaily: 50_000,
    perMinute: 300,
    resultWindow: 10_000,
    alerts: 100,
  },
  openDev: {
    apiAccess: true,
    daily: null,
    perKeyDaily: null,
    perMinute: 600,
    resultWindow: 10_000,
    alerts: 100,
  },
};

export const PLAN_PRICES_USD_PER_MONTH: Record<AccountPlan, number> = {
  free: 0,
  starter: 49,
  pro: 149,
};

const count = z.number().int().min(0);
const planOverride = z.strictObject({
  apiAccess: z.boolean().optional(),
  daily: z
    .strictObject(Object.fromEntries(QUOTA_BUCKETS.map((b) => [b, count.optional()])))
    .optional(),
  perKeyDaily: count.nullable().optional(),
  perMinute: count.optional(),
  resultWindow: z.number().int().min(1).optional(),
  alerts: count.optional(),
});
const plansOverride = z.strictObject({
  free: planOverride.optional(),
  starter: planOverride.optional(),
  pro: planOverride.optional(),
  openDev: planOverride.optional(),
});

export type Plans = Readonly<Record<PlanName, PlanLimits>>;

/** The defaults with PLAN_LIMITS_JSON laid over them; a malformed override stops the start. */
export function resolvePlans(overrideJson: string | undefined): Plans {
  if (!overrideJson) return DEFAULT_PLANS;
  let raw: unknown;
  try {
    raw = JSON.parse(overrideJson);
  } catch (error) {
    throw new Error(`PLAN_LIMITS_JSON is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = plansOverride.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`PLAN_LIMITS_JSON does not match the plans table: ${issues}`);
  }
  const plans = { ...DEFAULT_PLANS };
  for (const [name, override] of Object.entries(parsed.data) as Array<
    [PlanName, z.infer<typeof planOverride>]
  >) {
    const base = DEFAULT_PLANS[name];
    const dailyOverride = Object.fromEntries(
      Object.entries(override.daily ?? {}).filter(([, v]) => v !== undefined),
    );
    const daily =
      base.daily || Object.keys(dailyOverride).length
        ? { ...emptyDaily(), ...base.daily, ...dailyOverride }
        : null;
    plans[name] = {
      apiAccess: override.apiAccess ?? base.apiAccess,
      daily,
      perKeyDaily: override.perKeyDaily === undefined ? base.perKeyDaily : override.perKeyDaily,
      perMinute: override.perMinute ?? base.perMinute,
      resultWindow: override.resultWindow ?? base.resultWindow,
      alerts: override.alerts ?? base.alerts,
    };
  }
  return plans;
}

function emptyDaily(): Record<QuotaBucket, number> {
  return {
    storeSearches: 0,
    storeLookups: 0,
    productSearches: 0,
    productAppLookups: 0,
    scrapeRequests: 0,
  };
}

/** The paid plans in one sentence each, for the decisions list (docs.md, llms.txt, OpenAPI). */
export function describePlans(plans: Plans = DEFAULT_PLANS): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const sentences = PAID_PLANS.map((name) => {
    const plan = plans[name];
    const daily = QUOTA_BUCKETS.map((b) => `${n(plan.daily?.[b] ?? 0)} ${b}`).join(', ');
    const perKey =
      plan.perKeyDaily === null
        ? 'no per-key ceiling'
        : `at most ${n(plan.perKeyDaily)} requests per key`;
    return (
      `${name} (${PLAN_PRICES_USD_PER_MONTH[name]} USD/month): ${daily} per account per UTC day; ${perKey} per day; ` +
      `${n(plan.perMinute)} requests per key per minute; lists up to offset + limit = ${n(plan.resultWindow)}; ` +
      `${n(plan.alerts)} alerts`
    );
  }).join('. ');
  return `${sentences}.`;
}
