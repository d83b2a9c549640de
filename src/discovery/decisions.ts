// What we decided where the contract says "not shown". One list, stated in docs.md, llms.txt and
// the OpenAPI description, so the three never disagree. Route-specific details are also in each
// route's own description.
import { DEFAULT_PLANS, describePlans } from '../access/plans.ts';
import { HTTP_STATUS, type ErrorCode } from '../platform/errors.ts';

export interface Decision {
  topic: string;
  decision: string;
}

const statuses = (Object.entries(HTTP_STATUS) as Array<[ErrorCode, number]>)
  .sort(([, a], [, b]) => a - b)
  .map(([code, status]) => `${code} ${status}`)
  .join(', ');

export const DECISIONS: readonly Decision[] = [
  {
    topic: 'HTTP status per error code',
    decision: `${statuses}. A path that matches no route is not_found (404).`,
  },
  {
    topic: 'Error details',
    decision:
      'bad_request: `{parameter, rule}`, the parameter (query, path or body) and the rule it broke. not_found: the ' +
      'identity looked up, e.g. `{domain}`, `{domain, handle}` or `{slug}`. Other codes: null unless stated.',
  },
  {
    topic: 'Unknown query parameters',
    decision:
      'bad_request naming them, with the accepted parameters in the rule: a misspelt filter must never silently ' +
      'widen a result. A parameter given twice is a bad_request too.',
  },
  {
    topic: 'Parameter syntax',
    decision:
      'Integers are plain decimal digits; numbers are plain decimals (no exponent, Infinity or NaN); booleans are ' +
      'exactly `true` or `false`; dates are `YYYY-MM-DD` (UTC). `limit` is 1 to 100 on every list but ' +
      'history, which takes up to 180 so that the 90 or 180 daily snapshots the contract names come in one call.',
  },
  {
    topic: 'page.total on very broad lists',
    decision:
      'Exact up to 10,000 matches; beyond that it is PostgreSQL\'s estimate. page.hasMore is always exact: page ' +
      'until it is false.',
  },
  {
    topic: 'Product search without a filter',
    decision:
      'bad_request (400) with `details: {parameter: "q|isBestSeller|priceMin|priceMax", rule: "at least one filter is required"}`.',
  },
  {
    topic: 'Store search parameters beyond those named',
    decision:
      'Filters also include industry, category, maxVisits and minRevenue (USD, high end of the band); sort also ' +
      'takes rating, newest and relevance (the default when q is given, otherwise revenue). Without groupBy, ' +
      'sort=stores gives the default order and groupBy2/groupMetric have no effect, so a grouped query with groupBy ' +
      'dropped lists the stores behind it. With groupBy, sort is stores (default), revenue or visits; groupMetric ' +
      'defaults to median; groupBy2 must differ from groupBy.',
  },
  {
    topic: 'Grouped rows',
    decision:
      '`{key, parent, leaf, stores, metrics: {monthlyRevenueUsd, monthlyVisits}}`; `stores` is the store count ' +
      'sort=stores orders by; `key` is parent, or "parent / leaf" with groupBy2. The response adds ' +
      '`meta: {mode: "grouped", groupBy, groupBy2, groupMetric}`.',
  },
  {
    topic: 'Store profile fields',
    decision:
      'The card plus name, industry, category, currency, legacyId, theme, firstSeenAt, lastScrapedAt, metrics ' +
      '(productCount = catalog size, bestSellerCount, appCount, medianPriceUsd, socialFollowers, adSpendUsd, ' +
      'visitsChangePct, revenueChangePct), conversionRatePct {low, high}, averageOrderValueUsd, dropshipperScore, ' +
      'screenshotUrl, socials {instagram, facebook, tiktok, twitter, youtube, pinterest}, emails, apps, and models ' +
      '(revenue, visits, rating, dropshipper, adSpend: each `{model, method, fields, inputs: [{name, value}]}`).',
  },
  {
    topic: 'Traffic mix',
    decision:
      '`traffic.latest` = `{month, organic, paid, social, direct, referral, source}`: shares of visits from 0 to 1 ' +
      'and the provider. GET /v1/stores/{domain}/traffic answers the list envelope over monthly points plus `latest`.',
  },
  {
    topic: 'Compare',
    decision: '`{data: [store cards in the order asked], notFound: [domains not in the catalog]}`; never a 404.',
  },
  {
    topic: 'App stack and app detail',
    decision:
      'GET /v1/stores/{domain}/apps answers every app at once in the list envelope (hasMore false). GET ' +
      '/v1/apps/{slug} adds `installBaseSample`: up to 10 store cards, most visits first.',
  },
  {
    topic: 'Product, change, history and app records',
    decision: 'Their fields are listed under Shapes in docs.md and as schemas in /v1/openapi.json.',
  },
  {
    topic: 'Rate-limit headers',
    decision:
      'Every data response (and every 429) carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset ' +
      '(seconds) for the most constraining limit the request counted against, plus the IETF pair RateLimit-Policy ' +
      '(`"perMinute";q=60;w=60, "perKeyDaily";q=5000;w=86400, "storeSearches";q=500;w=86400`) and RateLimit ' +
      '(`"storeSearches";r=499;t=3600`) naming each limit. A 429 adds Retry-After in seconds and ' +
      '`details: {bucket, limit, window, retryAfter}`.',
  },
  {
    topic: 'Quotas and plans',
    decision:
      `Each request counts once against the key's per-minute rate, the key's daily ceiling and the account's daily ` +
      `bucket for its route (named in each route's description; analytics count as store searches). Daily limits ` +
      `renew at 00:00 UTC; the minute window starts with its first request. A refused request counts against ` +
      `nothing. ${describePlans()} Free accounts cannot mint keys; a key whose account is on the free plan is ` +
      'forbidden (403). GraphQL counts each root field as one request in its bucket (`node`/`nodes`: one per id).',
  },
  {
    topic: 'Result window',
    decision:
      'A key lists no deeper than its plan does in the web app: offset + limit above the plan\'s result window is ' +
      'bad_request with `details: {parameter: "offset", rule}` (an explicit error rather than a silently cut list).',
  },
  {
    topic: 'Keys and open-dev mode',
    decision:
      'Keys look like `sk_live_` + 32 letters and digits; a key in the query string is bad_request and the request is ' +
      'not served. While no key exists and NODE_ENV is not production, the server runs in open-dev mode: data routes ' +
      `answer without a key (limited to ${DEFAULT_PLANS.openDev.perMinute} requests per minute per client address, no daily ` +
      'buckets) and /v1/health says `openDevMode: true`.',
  },
  {
    topic: 'Scrape requests',
    decision:
      'POST /v1/scrapes answers 202 `{outcome: "queued", domain, scrape: <status record>, storeUrl}`, or, when the ' +
      'store is in the catalog and force is not true, 200 `{outcome: "already_exists", domain, scrape: null, storeUrl}` ' +
      'and no job. A forced request for a store with any scrape request in the last 5 minutes is rate_limited (429, ' +
      'Retry-After, `details: {domain, cooldownSeconds, retryAfter}`). The status record is `{id, domain, status, force, ' +
      'callbackUrl, failureReason, createdAt, updatedAt, startedAt, finishedAt, expiresAt}`; only the account that made ' +
      'the request may read it (GET /v1/scrapes/{id}, scrapeRequest, scrapeStatus), until expiresAt (15 minutes after ' +
      'the end), then not_found. Another account\'s id is not_found, like an id that never existed; requests made in ' +
      'open-dev mode are readable in open-dev mode only. Polling GET /v1/scrapes/{id} counts against no daily bucket; ' +
      'requests count against scrapeRequests.',
  },
  {
    topic: 'Bulk scrape requests',
    decision:
      'POST /v1/scrapes/bulk takes `{urls: 1 to 10 strings, force?, callbackUrl?}` and answers 200 `{data: [{url, domain, ' +
      'outcome, scrape, error}], counts: {queued, alreadyExists, duplicate, rejected}}`, one item per URL in order; ' +
      'outcome is queued, already_exists, duplicate (the same domain earlier in the list) or rejected (error = the ' +
      '`{code, message}` the single request would have answered). Each URL costs one unit of scrapeRequests and of the ' +
      'per-minute rate, as in GraphQL; a bulk larger than what is left is rate_limited (429) as a whole and queues nothing.',
  },
  {
    topic: 'Webhooks',
    decision:
      'Body `{type: "scrape.done" | "scrape.failed", timestamp, data: {id, domain, status, force, failureReason, createdAt, ' +
      'startedAt, finishedAt, storeUrl}}` (the webhooks section of /v1/openapi.json). Signed per Standard Webhooks: ' +
      'headers webhook-id (the same on every retry: deduplicate on it), webhook-timestamp and webhook-signature ' +
      '(v1, HMAC-SHA256 with the server\'s WEBHOOK_SIGNING_SECRET). Any 2xx acknowledges; otherwise retried with ' +
      'exponential backoff (e^attempt seconds) up to 12 attempts, then given up. Redirects are not followed; the URL ' +
      'must be HTTPS and reach a public address. The secret is the server\'s WEBHOOK_SIGNING_SECRET or, when that is not ' +
      'set, one the service generated on its first start and keeps in its database (all replicas share it); operators ' +
      'read it with `npm run keys -- webhook-secret`.',
  },
  {
    topic: 'A full URL as {domain}',
    decision: 'URL-encode it into the path segment: /v1/stores/https%3A%2F%2Fwww.example.com.',
  },
];
