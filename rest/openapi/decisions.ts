// What we decided where the contract says "not shown". One list, stated in docs.md, llms.txt and
// the OpenAPI description, so the three never disagree. Route-specific details are also in each
// route's own description.
import { DEFAULT_PLANS, describePlans } from '../../src/access/plans.ts';
import { HTTP_STATUS, type ErrorCode } from '../../src/platform/errors.ts';
import { KEY_CACHE_TTL_MS } from '../../src/access/authenticate.ts';
import { exampleRateLimitHeaders } from '../../src/access/headers.ts';
import { DEFAULT_RESPONSE_CACHE_TTL_MS } from '../../src/http/response-cache.ts';
import {
  ROLLUP_MAX_AGE_MINUTES,
  ROLLUP_REFRESH_MINUTES,
} from '../../src/stores/rollups/store-rollups.ts';
import { NARROW_SEARCH_DOCUMENTS } from '../../src/search/relevance-page.ts';
import { EXACT_TOTAL_FILTERS } from '../../src/stores/rollups/store-filter-counts.ts';
import { TERMS_REFRESH_MS } from '../../src/search/nearest-terms.ts';
import { SEEDED, UNLISTED } from '../../src/seed/seeded-catalog.ts';
import { EXAMPLE_STORY_TEXT } from './example-story.ts';
import { QUERY_COST_RULES } from '../../src/graphql/query-cost.ts';
import { APQ_MAX_DOCUMENTS } from '../../src/gateway/automatic-persisted-queries.ts';
import { loadReferenceData } from '../../src/seed/reference-data.ts';

const RATE_LIMIT_EXAMPLE = exampleRateLimitHeaders();

/** The apps data/apps.json marks not detectable from a storefront, grouped by the reason it gives. */
function notDetectableApps(): string {
  const byReason = new Map<string, string[]>();
  for (const app of loadReferenceData().apps) {
    if (!app.notDetectable) continue;
    const names = byReason.get(app.notDetectable) ?? [];
    names.push(`${app.name} (${app.slug})`);
    byReason.set(app.notDetectable, names);
  }
  return [...byReason].map(([reason, names]) => `${names.join(', ')}: ${reason}.`).join(' ');
}

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
      `Exact at any size on GET /v1/stores (GraphQL stores) without q whose filters are ${EXACT_TOTAL_FILTERS} ` +
      '(app by slug, names case-insensitive): those totals are read from counts the database keeps exact as observations ' +
      'change the catalog, not counted per request. Otherwise exact up to 10,000 matches; beyond that it is ' +
      "PostgreSQL's estimate. page.hasMore is always exact: page " +
      'until it is false. A text search (q on stores or products) is counted exactly while the words it matched are held ' +
      `by at most ${NARROW_SEARCH_DOCUMENTS} stores or products (the search index counts them); beyond that its total is ` +
      "that count, or with other filters PostgreSQL's estimate, and it is not exact (GraphQL totalCountExact: false). An " +
      'estimate is no bound: it may be lower or higher than the number of items paging yields (a match holding two of the ' +
      'words counts twice; other filters are estimated as if independent). GraphQL paging is forward-only (first/after).',
  },
  {
    topic: 'The synthetic demo catalog',
    decision:
      'A server started on an empty database seeds a synthetic catalog (SEED_STORES). Its stores live under the ' +
      'reserved top-level domain .example (RFC 2606), e.g. quietlab.store.example: no real store has such a name, ' +
      'and no request for one ever leaves the machine. Outside production the server answers as their storefronts ' +
      "itself (DEMO_STOREFRONTS): a scrape or a Signals watch of a seeded store reads the catalog's own products and " +
      'apps, shows the best seller not yet on sale at 10 % off (a price_decrease in the change feeds) and sells a few ' +
      'units at every probe (sales from the second probe on). The scrape and Signals examples name ' +
      `${UNLISTED.store}, a store the catalog lacks that the demo storefronts also answer for. In production, or ` +
      'with DEMO_STOREFRONTS=false, a probe or scrape of a synthetic store fails with a reason saying it is synthetic. ' +
      `Stores a scrape adds keep their real domains. ${EXAMPLE_STORY_TEXT}`,
  },
  {
    topic: 'Freshness of whole-catalog figures',
    decision:
      `Without a filter, grouped rows (GET /v1/stores with groupBy) and the analytics overview, verticals and ` +
      `countries (without vertical) are read from rollups refreshed every ${ROLLUP_REFRESH_MINUTES} minutes and ` +
      `after each seed; they are never served more than ${ROLLUP_MAX_AGE_MINUTES} minutes old (computed live past ` +
      `that), and the overview's generatedAt is when they were computed. Filtered requests are always live.`,
  },
  {
    topic: 'Response caching',
    decision:
      `The catalog GET routes (stores, products, changes, analytics, apps; never scrapes or Signals) may answer from ` +
      `an in-memory copy of the same request's answer (same route, same parameters) at most ` +
      `${DEFAULT_RESPONSE_CACHE_TTL_MS / 1000} seconds old (RESPONSE_CACHE_TTL_MS). A finished scrape of a store ` +
      'drops at once, on every replica, the cached answers about that domain and every list or aggregate. Every ' +
      'request is still authenticated, counted against its limits and answered with its own rate-limit headers. ' +
      'A deployment that reads the catalog from database replicas (DATABASE_READ_URL) may answer catalog reads up to ' +
      'DATABASE_READ_MAX_LAG_MS (5 seconds unless configured) behind the latest write; scrape requests, watches, ' +
      'probes and keys are always read where they are written, so each is visible the moment its request is answered.',
  },
  {
    topic: 'Key revocation',
    decision:
      `A revoked key is refused at once when revoked through the web app (and by \`npm run keys -- revoke\` when the ` +
      `servers share Redis); otherwise within ${KEY_CACHE_TTL_MS / 1000} seconds, the time a server reuses a key it ` +
      'has checked. A plan change reaches existing keys within the same bound.',
  },
  {
    topic: 'Relevance order of q searches',
    decision:
      'q is split into words (letters and digits; a full domain or URL is searched by its first label). Each word matches ' +
      "a store's or title's words as: itself; for the last word, any word it begins (typing); a word within one typing " +
      'mistake for 3 to 5 letters or two from 6 letters on (a swap of neighbouring letters is one); a longer word ' +
      "containing it (4 letters or more). Relevance adds, per word, the best match's quality (itself 1, begun 0.8, one " +
      "mistake 0.7, contained 0.6, two mistakes 0.5) times the word's weight (rarer words weigh more), so a store or title " +
      'holding every word as typed ranks above those holding some of them, whichever order they are typed in. A last word of one or two letters after words that match ' +
      '(sageland wh) is the word being typed: it matches any word it begins among the matches of the others. Stores: the store ' +
      'whose domain is q first, then exact names, then domains starting with q when q is typed as a domain (with a dot, ' +
      'dash or digit: birchgarden-official, birchgarden.shop), then relevance; ties go round-robin over the few brands a ' +
      'prefix or a typo can stand for, then to visits. Products: relevance, then id. A word near nothing in the catalog ' +
      'matches nothing: nonsense finds nothing. A word new to the catalog (a store or title just written) is found as ' +
      `itself, as a prefix and inside longer words at once, and with a typing mistake within ${TERMS_REFRESH_MS / 60_000} ` +
      "minute (each server reads the catalog's words for its typo index again once they are that old).",
  },
  {
    topic: 'Product search without a filter',
    decision:
      'bad_request (400) with `details: {parameter: "q|isBestSeller|priceMin|priceMax", rule: "at least one filter is required"}`.',
  },
  {
    topic: 'Store search parameters beyond those named',
    decision:
      'Filters also include industry, category, maxVisits and minRevenue (USD, high end of the band), and the ' +
      'technology and catalog filters: app (comma-separated app slugs; the store runs all of them), anyApp (at least one), ' +
      'notApp (none), theme (case-insensitive), minProducts and maxProducts (catalog size), firstSeenAfter (on or after ' +
      'that day, UTC) and firstSeenBefore (before that day), and tld (a domain ending of whole labels: tld=uk matches ' +
      "brand.co.uk; the demo catalog's stores end in .example, e.g. tld=store.example). GET /v1/stores/facets lists the " +
      'valid values with store counts under the same filters. Sort also ' +
      'takes rating, newest and relevance (the default when q is given, otherwise revenue). Without groupBy, ' +
      'sort=stores gives the default order and groupBy2/groupMetric have no effect, so a grouped query with groupBy ' +
      'dropped lists the stores behind it. With groupBy, sort is stores (default), revenue or visits; groupMetric ' +
      'defaults to median; groupBy2 must differ from groupBy.',
  },
  {
    topic: 'Stores by app installs and uninstalls',
    decision:
      'GET /v1/stores (plain and grouped), GET /v1/stores/facets, their exports and GraphQL StoreFilter take installedApp ' +
      'with installedSince and installedBefore, and uninstalledApp with uninstalledSince and uninstalledBefore. The dates ' +
      "are observation dates, not the merchant's: installed = the first observation that saw the store running the app " +
      '(first seen running), uninstalled = the first observation that saw it without (first seen without); an app a store ' +
      'already ran when the catalog first observed it counts as installed at that first observation. installedApp=X keeps ' +
      'stores with a period of X first seen running in [installedSince, installedBefore) (either bound optional; neither: ' +
      'ever observed running X, whether or not it still does; add app=X for "still runs"); uninstalledApp=X likewise on ' +
      'first seen without (neither bound: ever observed dropping X, even if installed again since). Dates are YYYY-MM-DD ' +
      '(midnight UTC) or ISO 8601 timestamps with Z or an offset. A date bound without its app parameter, a malformed ' +
      'date, or a since not before its before is bad_request naming the parameter; an unknown slug matches nothing, like ' +
      'app (see the next decision). page.total counts stores, once each, however many periods match.',
  },
  {
    topic: 'A filter value the catalog does not have',
    decision:
      'A value of vertical, industry, category, countryCode, theme, tld, app, anyApp, notApp, installedApp or uninstalledApp ' +
      'that no store has (compared case-insensitively) is not an error: the list is empty (an unknown app under notApp ' +
      'excludes nothing, under anyApp it drops out) and `meta.suggestions` lists, per such value, `{parameter, value, nearest}` with up to 3 of the ' +
      "catalog's nearest values, closest first (in grouped mode beside meta.mode). A list whose values all exist carries " +
      'no meta.suggestions.',
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
    decision:
      '`{data: [store cards in the order asked], notFound: [domains not in the catalog]}`; never a 404.',
  },
  {
    topic: 'App stack and app detail',
    decision:
      'GET /v1/stores/{domain}/apps answers every app at once in the list envelope (hasMore false). GET ' +
      '/v1/apps/{slug} adds `installBaseSample`: up to 10 store cards, most visits first.',
  },
  {
    topic: 'App detection and apps not detectable from a storefront',
    decision:
      "A store's apps are the apps whose loader script or markup is on its homepage, each app found by " +
      'patterns checked against loaders seen on real storefronts. An app that leaves nothing there, or whose ' +
      'trace was never found, has no patterns: a scrape or probe never finds it and never sees it removed, so ' +
      'an install of it recorded otherwise (the seeded demo catalog) stays as it is, no app_installed or ' +
      'app_uninstalled change names it, and its installCount counts only such installs. It stays in the app ' +
      `catalog (GET /v1/apps/{slug}). These apps: ${notDetectableApps()}`,
  },
  {
    topic: 'App trends',
    decision:
      'GET /v1/apps/{slug}/trend answers `{app, vertical, countryCode, months}`, oldest month first (UTC calendar ' +
      'months, the current one counted up to now). A store already running the app when first observed counts in ' +
      "`newlyObserved`, not `installs`, so installBase = the previous month's + installs + newlyObserved - " +
      'uninstalls; `net` = installs - uninstalls. A store counts under its current vertical and country. An unknown ' +
      'vertical or country answers months of zeros, and GET /v1/analytics/apps an unknown category an empty list, ' +
      'as unknown filter values do elsewhere.',
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
      `and RateLimit naming each limit; a starter key's first store search of the day, an hour before UTC midnight, ` +
      `gets \`RateLimit-Policy: ${RATE_LIMIT_EXAMPLE['RateLimit-Policy']}\` and \`RateLimit: ${RATE_LIMIT_EXAMPLE.RateLimit}\`. ` +
      'A 429 adds Retry-After in seconds and `details: {bucket, limit, window, retryAfter}`. GET /v1/usage reads ' +
      'the same figures for the key without spending any: it is never counted and answers while the key is rate-limited.',
  },
  {
    topic: 'Quotas and plans',
    decision:
      `Each request counts once against the key's per-minute rate, the key's daily ceiling and the account's daily ` +
      `bucket for its route (named in each route's description; analytics count as store searches). Daily limits ` +
      `renew at 00:00 UTC; the minute window starts with its first request. A refused request counts against ` +
      `nothing. Requests that bring no valid credential (a missing, unknown or revoked key; anonymous GraphQL) are ` +
      `limited per client address (UNAUTHENTICATED_PER_MINUTE, default 60 a minute; past it rate_limited with ` +
      `details.bucket "unauthenticated"); a valid key is never refused by that limit. The client address is the TCP ` +
      `peer unless TRUST_PROXY names the proxies in front (a hop count, or their addresses and CIDRs), whose ` +
      `X-Forwarded-For is then read; an IPv6 client counts by its /64. ${describePlans()} Free accounts cannot mint keys; a key whose account is on the free plan is ` +
      'refused with HTTP 403, code unauthorized, `details.reason: "plan"`. GraphQL counts each root field as one request in its bucket (`node`/`nodes`: one per id), and every answer it charged carries `extensions.quota` `{charged: {requests, buckets}, limits: [{policy, limit, remaining, resetSeconds}]}` (the RateLimit headers\' figures, also over WebSocket). ' +
      'Over MCP a tools/call counts as the route it runs; every other MCP message (initialize, tools/list, ping, …) counts ' +
      'one against the per-minute rate only.',
  },
  {
    topic: 'Charges of requests never answered',
    decision:
      'A charge is provisional until the server is done with its request: the answer written, or the client gone. If ' +
      "the server process dies before that (a crash, a kill, an out-of-memory stop), the request's daily units (the " +
      "per-key ceiling and the account's bucket) are refunded by another server process within about 20 seconds, " +
      'through a record kept in Redis with the counters and written in the same step as the charge; the per-minute ' +
      'rate is not refunded (it guarded that minute). So a request is charged once for each answer the server wrote, ' +
      'including an answer written just before a crash that the client never read; a retry of an unanswered request ' +
      'is charged once. Without Redis (one process, in-process counters) a crash forgets every count of that process.',
  },
  {
    topic: 'Result window',
    decision:
      "A key lists no deeper than its plan does in the web app: offset + limit above the plan's result window is " +
      'bad_request with `details: {parameter: "offset", rule}` (an explicit error rather than a silently cut list), and ' +
      'the page that reaches the window answers `hasMore: false` even when more items exist, so a client that pages ' +
      'while hasMore is true never meets that error. GraphQL: `pageInfo.hasNextPage` is false there, and the error ' +
      'names `after` (the position after the cursor plus `first`).',
  },
  {
    topic: 'Keys and open-dev mode',
    decision:
      'Keys look like `sk_live_` + 32 letters and digits; a key in the query string is bad_request and the request is ' +
      'not served. Every 401 carries `WWW-Authenticate: Bearer realm="store-intelligence"` (with `error="invalid_token"` ' +
      'for a key that was sent and refused; on /mcp also `resource_metadata`, the RFC 9728 document at ' +
      '/.well-known/oauth-protected-resource/mcp) and a message saying how to mint a key. Until the first key is created (and NODE_ENV is not production), the server runs in open-dev mode: ' +
      'data routes answer requests without a key from loopback clients only (127.0.0.0/8, ::1; any other address gets ' +
      `unauthorized), limited to ${DEFAULT_PLANS.openDev.perMinute} requests per minute per client address, no daily ` +
      'buckets, and /v1/health says `openDevMode: true`. Once a key has existed, open-dev mode never returns by itself: ' +
      'with every key revoked a request without a key is unauthorized (401). An operator may ask for it back with ' +
      'OPEN_DEV_MODE=while-no-live-key (open-dev whenever no key is live) or turn it off entirely with OPEN_DEV_MODE=off.',
  },
  {
    topic: 'GraphQL schema and introspection',
    decision:
      'The schema is public in every environment: introspection answers any caller, anonymous included (it is ' +
      "also published as schema/schema.graphql and in the typed client), and a misspelled field gets GraphQL's " +
      '"Did you mean" hint. Seeing a field grants nothing: key management needs the web app\'s service credential ' +
      'and data fields need a key.',
  },
  {
    topic: 'Long-lived streams and revoked keys',
    decision:
      'A subscription (GraphQL over server-sent events, as GraphiQL and the operations console read it, or over ' +
      'WebSocket) is checked again every second against the key cache, which holds a key at most 5 seconds: once its ' +
      'key is revoked (or a key is created while an open-dev stream runs) an SSE stream gets one last event whose ' +
      '`errors[0].extensions.code` is unauthorized and then completes, and a WebSocket is closed with code 4403, ' +
      'within about 6 seconds (at once when the revocation is announced over Redis). MCP holds no stream open: each ' +
      'message is one JSON answer (GET /mcp is 405).',
  },
  {
    topic: 'WebSocket limits',
    decision:
      'GraphQL over WebSocket (graphql-transport-ws at /graphql): a message larger than the HTTP body limit (64 KiB) ' +
      'closes its socket with code 1009 (message too big) before it is buffered; connection_init must arrive within ' +
      '10 seconds (else close 4408) and carry a valid key (else close 4403); one client address may hold at most 8 ' +
      'sockets whose connection_init has not been authorised yet, and an upgrade beyond that is refused with HTTP 429, ' +
      'Retry-After: 1 and the rate_limited envelope (`details.bucket: "unauthenticatedSockets"`). The client address ' +
      'is the one the per-address HTTP limit counts: the TCP peer, or what a TRUST_PROXY proxy forwarded, an IPv6 ' +
      'client by its /64. An oversized message is logged as one structured warning (`reason: "message_too_big"`).',
  },
  {
    topic: 'Scrape requests',
    decision:
      'POST /v1/scrapes answers 202 with the scrape request itself: its status record (below) at the top level, with ' +
      '`outcome: "queued"` and `storeUrl` beside its fields; or, when the store is in the catalog and force is not ' +
      'true, 200 `{outcome: "already_exists", domain, storeUrl}` and no job. A request (not forced) while the same ' +
      "account's request for that domain is queued, validating or scraping answers that request (202, the same id) " +
      'and queues no second job. A forced request for a store with any scrape request in the last 5 minutes is rate_limited (429, ' +
      'Retry-After, `details: {domain, cooldownSeconds, retryAfter}`). The status record is `{id, domain, status, force, ' +
      'callbackUrl, failureReason, createdAt, updatedAt, startedAt, finishedAt, expiresAt}`; only the account that made ' +
      'the request may read it (GET /v1/scrapes/{id}, scrapeRequest, scrapeStatus), until expiresAt (15 minutes after ' +
      "the end), then not_found. Another account's id is not_found, like an id that never existed; requests made in " +
      'open-dev mode are readable in open-dev mode only. Polling GET /v1/scrapes/{id} counts against no daily bucket; ' +
      'requests count against scrapeRequests.',
  },
  {
    topic: 'Bulk scrape requests',
    decision:
      'POST /v1/scrapes/bulk takes `{urls: 1 to 10 strings, force?, callbackUrl?}` and answers 200 `{data: [{url, domain, ' +
      "outcome, id, scrape, error}], counts: {queued, alreadyExists, duplicate, rejected}}`, one item per URL in order (`id`: the queued request's id, else null); " +
      'outcome is queued, already_exists, duplicate (the same domain earlier in the list) or rejected (error = the ' +
      '`{code, message}` the single request would have answered). Each URL costs one unit of scrapeRequests and of the ' +
      'per-minute rate, as in GraphQL; a bulk larger than what is left is rate_limited (429) as a whole and queues nothing.',
  },
  {
    topic: 'Bulk store lookup',
    decision:
      'POST /v1/stores/lookup (GraphQL `lookupStores(domains:)`) takes `{domains: 1 to 100}` as JSON, or a text/csv body of ' +
      'one column of domains with or without a `domain` header, and answers `{data, notFound, moved}` like ' +
      'GET /v1/stores/compare: cards in the order asked, a repeat (after canonicalising) answered once at its first ' +
      "position, an old domain of a moved store answering the store's card (listed in `moved`). Each store found costs " +
      'one unit of storeLookups (not-found domains cost nothing); the call counts once against the per-minute rate and ' +
      'per-key ceiling. All or nothing: a lookup whose stores found exceed what is left of storeLookups is rate_limited ' +
      'and charges nothing. `format=csv` or `Accept: text/csv` answers one row per different domain asked.',
  },
  {
    topic: 'Webhooks',
    decision:
      'Body `{type: "scrape.done" | "scrape.failed", timestamp, data: {id, domain, status, force, failureReason, createdAt, ' +
      'startedAt, finishedAt, storeUrl}}` (the webhooks section of /v1/openapi.json). Signed per Standard Webhooks: ' +
      'headers webhook-id (the same on every retry: deduplicate on it), webhook-timestamp and webhook-signature ' +
      "(v1, HMAC-SHA256 with the server's WEBHOOK_SIGNING_SECRET). Any 2xx acknowledges; otherwise retried with " +
      'exponential backoff (e^attempt seconds) up to 12 attempts, then given up. Redirects are not followed; the URL ' +
      "must be HTTPS and reach a public address. The secret is the server's WEBHOOK_SIGNING_SECRET or, when that is not " +
      'set, one the service generated on its first start and keeps in its database (all replicas share it); operators ' +
      'read it with `npm run keys -- webhook-secret`. In development (NODE_ENV development, the default) a callbackUrl ' +
      'may also be http on loopback (127.0.0.1, ::1 or localhost): `npm run webhooks:listen` listens there, verifies each ' +
      "delivery's signature and prints it, as `stripe listen` does; a production server refuses loopback callbacks.",
  },
  {
    topic: 'Signals: watches',
    decision:
      'POST /v1/signals `{domain}` answers 201 with the watch `{domain, legacyId, status, createdAt, updatedAt, ' +
      'lastProbeAt, nextProbeAt, trackedVariants, probe, links}`; HTTP 409 with code bad_request and `details.reason: "already_tracked"` when the key\'s account already watches ' +
      'the store; not_found when the store is not in the catalog (queue it with POST /v1/scrapes first). The ' +
      'best-sellers (up to 20 products; the newest products when the catalog marks none) are tracked at once, every ' +
      'variant of each, the variants being read by the first probe, queued in the same transaction as the watch. GET ' +
      "/v1/signals lists the account's watches (newest first, paginated). Status values are tracked and paused; PATCH " +
      '`{status: "tracked"}` resumes a paused watch (next probe one interval after the last, or at once). PATCH ' +
      '`{products: [handles]}` swaps the tracked SKU set by product. DELETE answers `{domain, deleted: true}` and removes ' +
      'probes, snapshots and insights with the watch; the catalog keeps the store. {domain} accepts a domain, a ' +
      'URL-encoded URL or the legacy id. Signals routes count against no daily bucket: only the per-minute rate and the ' +
      "per-key daily ceiling. In open-dev mode all keyless callers share one account's watches.",
  },
  {
    topic: 'Alerts: saved searches that alert',
    decision:
      'POST /v1/alerts `{name, filter, callbackUrl?}` saves `filter` (the filters of GET /v1/stores as one object, same ' +
      'names and value formats; sort, groupBy, groupBy2, groupMetric, limit and offset are refused as not filters; an ' +
      "invalid one is bad_request with details.parameter filter.<name>) for the key's account and answers 201 `{id, name, " +
      'filter, callbackUrl, createdAt, matchCount, links}`. A match is a store that an observation (a scrape, a scheduled ' +
      're-observation, a discovery, a Signals probe) makes newly match the filter: it did not match before that ' +
      "observation and does after, evaluated with the SQL of the store search in the observation's own transaction; a " +
      'store new to the catalog that matches on its first observation is a match. A store is matched at most once per ' +
      'alert (dropping out and matching again adds nothing), and stores that already match when the alert is created are ' +
      'not matches. GET /v1/alerts/{id}/matches lists `{domain, matchedAt}` newest first (matchedAt: the observation). ' +
      "With callbackUrl (HTTPS, the rules of a scrape's), `alert.matched` webhooks `{type, timestamp, data: {alert: {id, " +
      "name}, matches, matchesUrl}}` go through the scrape webhooks' outbox, signing and retries, at most one per alert a " +
      'minute (ALERT_WEBHOOK_INTERVAL_MS), each listing the matches since the previous one (at most 500; the rest follow ' +
      'a minute later); a match and its pending webhook are written together, so neither is lost on a crash; a delivery ' +
      'that settled (delivered, or failed for good) is kept 7 days. Plans allow ' +
      `${DEFAULT_PLANS.starter.alerts} (starter) and ${DEFAULT_PLANS.pro.alerts} (pro) alerts per account; past that ` +
      'HTTP 409, code bad_request, `details.reason: "alert_limit"`. Another account\'s alert is not_found. Alert routes ' +
      'count against no daily bucket: only the per-minute rate and the per-key daily ceiling. DELETE answers `{id, ' +
      'deleted: true}` and drops the matches and unsent webhooks.',
  },
  {
    topic: 'Signals: partner keys',
    decision:
      'A key with scope signals:read may GET any domain already on Signals (it reads the oldest watch of that store) and ' +
      'its own account\'s list and inbox; POST, PATCH and DELETE on watches answer HTTP 403, code unauthorized, `details.reason: "scope"`. Another account\'s watch ' +
      'is not_found for ordinary keys, exactly like a store nobody watches.',
  },
  {
    topic: 'Signals: probes',
    decision:
      "A probe reads `https://{domain}/products/{handle}.js` (Shopify's per-product JSON) for each tracked product and " +
      'keeps, per variant, id, sku, title, price (cents in .js, decimal units when given as text), available and ' +
      'inventory_quantity. Stores that hide inventory_quantity get snapshots with stock null: price and availability ' +
      'are recorded, price_change insights still work, no sales are estimated. All snapshots, the insights and the ' +
      "probe's end state are one transaction. progress.status is queued, running, done or failed (with error: an " +
      'unreachable storefront or a non-product answer fails the probe and writes nothing; a product answering 404 is ' +
      'skipped). Probes are durable jobs; scheduled ones run every SIGNAL_PROBE_INTERVAL_MINUTES (default 360) while the ' +
      'watch is tracked. POST /v1/signals/{domain}/probe answers 202 with the probe; a second manual probe within 5 ' +
      'minutes is rate_limited (429, Retry-After, `details: {domain, cooldownSeconds, retryAfter, lastManualProbeAt}`). ' +
      'GET /probe shows the latest probe of any kind.',
  },
  {
    topic: 'Signals: estimated sales (method)',
    decision:
      'An estimate, not merchant-reported sales. For each tracked variant, consecutive snapshots are compared: a stock ' +
      "decrease of n is n units sold, valued at the earlier snapshot's price (the storefront currency) and counted on the " +
      'UTC day of the later snapshot; an increase is a restock, reported apart and never a negative sale (sales hidden in ' +
      'a restocked interval are not seen, so figures are a lower bound). /stats and /sales need 2 snapshots of a variant; ' +
      'before that they answer 200 with empty data, ready false and a note. /sales lists only days with an estimate ' +
      '(`from` defaults to 30 days ago), whole, in the list envelope plus `meta`. /inventory?days (1 to 365, default 30) ' +
      'gives per variant startStock, endStock, unitsSold and restocks {count, units} within the window.',
  },
  {
    topic: 'Signals: money and its currency',
    decision:
      "Sales figures, inventory prices and the ads overview's revenue are in the watched store's own currency (what its " +
      'storefront prices are in) and name it in `currency` (ISO 4217) beside the amounts: `revenue`, `revenuePerDay`, ' +
      "`price`. The `revenueUsd` and `revenuePerDayUsd` fields (and the lift's `*Usd` means) carry the same amount for a " +
      'USD store and are null for any other: amounts are never converted, so no figure labelled USD is in another ' +
      'currency. A watch is one store, so its amounts never mix currencies; add figures of several watches only when ' +
      'their `currency` is the same. Product change records carry `currency` too (their oldValue and newValue are ' +
      "prices in the store's currency); it is null for app and store changes.",
  },
  {
    topic: 'Signals: insights',
    decision:
      'Cards `{id, domain, kind, title, body, data, createdAt}`, newest first, paginated, `kind` filter validated against ' +
      "sales_spike, restock, ad_new_campaign, app_change, price_change. Computed at each probe: restock (a variant's " +
      "stock rose), price_change (its price changed), sales_spike (the probe's day reached at least 5 units and 2x the " +
      'median of the previous 7 days with an estimate, at least 3 of them; once per day). GET /v1/signals/insights is the ' +
      "inbox across every watch of the key's account.",
  },
  {
    topic: 'Signals: apps, app changes and product changes',
    decision:
      'Each probe also reads the watched storefront (homepage and products.json) and writes it as a scrape does (the ' +
      "store's profile, today's history row, lastScrapedAt and its change records), before the probe is done: a probe " +
      'that is done has its changes readable; a store never observed before gets its baseline and no changes. GET /v1/signals/{domain}/apps ' +
      'answers the whole app stack at once (list envelope, hasMore false) with firstSeenAt and lastSeenAt per app. ' +
      "/apps/changes is the store's whole install and uninstall history (app_installed, app_uninstalled), from before " +
      'the watch too, newest first. /products/changes holds only changes detected since the watch was created ' +
      '(price_increase, price_decrease, new_sku, removed_sku, optional changeType filter) and adds ' +
      '`meta: {watchedSince}`. Each app change gives every tracked watch of the store an app_change insight.',
  },
  {
    topic: 'Signals: ads',
    decision:
      'POST /v1/signals/{domain}/ads/probe is synchronous and answers 200 `{domain, probedAt, networks: [{network, status, ' +
      'adsFound, newAds, endedAds, error}], insightsCreated}` with one entry each for meta (Meta Ad Library, ads_archive ' +
      'searched for the domain as an exact phrase), tiktok (TikTok Commercial Content API ad query) and google (a ' +
      "configured service answering the Google Ads Transparency Center's creatives for the domain; Google has no API). " +
      'status is ok, not_configured (no ADS_<NETWORK>_BASE_URL or _TOKEN on the server: nothing is invented) or failed ' +
      '(error says why: HTTP status, timeout, library error); one network failing never fails the call or the others. ' +
      "Creatives are kept per store: first seen = the library's first-shown time (else the probe's), last seen = the " +
      'latest probe that listed it; a network whose answer was complete marks the creatives it no longer lists inactive. ' +
      "New creatives give every watch of the store one ad_new_campaign insight per network (on a network's first answer " +
      'for a store, only creatives first shown in the last 7 days). One ads probe per watch every 5 minutes, else ' +
      'rate_limited (429, Retry-After, `details: {domain, cooldownSeconds, retryAfter}`); partner keys get HTTP 403, code unauthorized, `details.reason: "scope"`. ' +
      'GET /ads lists creatives newest first (first seen), optional `network`. GET /ads/overview?days (1 to 180, default ' +
      '30) answers `{domain, days, from, to, isEstimate, snapshots, method, note, currency, daily: [{day, activeAds, newAds, ' +
      'afterLaunch, units, revenue, revenueUsd}], lift}`. Lift (an estimate): a day is after a launch when a creative was first ' +
      'seen on it or in the 6 days before; lift = mean daily units (and revenue) on those days with a sales estimate / ' +
      'mean on the other days with one - 1, in percent, with both day counts; null when a group is empty or the other ' +
      'days sold nothing, and null with a note before the watch has 2 inventory snapshots.',
  },
  {
    topic: 'Backend outages',
    decision:
      'While PostgreSQL is unreachable (down, restarting or still starting up, refusing connections, out of ' +
      'connections: any connection-level failure), requests fail within seconds with HTTP 503, Retry-After: 5 and code internal ' +
      '(the contract has no other server-side code) with `details.reason: "database_unavailable"` and a fixed message ' +
      '(never driver text); /graphql answers the same in `errors[].extensions`, and /v1/health answers 503 with ' +
      '`backends.structured.reason` saying why (e.g. the embedded PostgreSQL restarting, attempt 2 of 5). Nothing is half-written, and the service recovers by itself when the database returns. While the legacy store ' +
      'is unreachable, stores are served without screenshotUrl, socials and emails, and `sources` lacks its entry. While ' +
      'Redis is unreachable, rate limits and quotas are counted per instance, and subscriptions resume when it returns. ' +
      '/v1/health names the backend that is down (status degraded, HTTP 200, unless it is PostgreSQL).',
  },
  {
    topic: 'A full URL as {domain}',
    decision:
      `URL-encoded into the path segment (/v1/stores/${encodeURIComponent(`https://www.${SEEDED.domain}`)}) or written as is ` +
      `(/v1/stores/https://www.${SEEDED.domain}/products): a segment that is a bare scheme (http: or https:) starts a URL whose ` +
      'scheme and host are the {domain}; what follows the host is the rest of the route.',
  },
  // security: bad input, keys, outbound requests, headers and CORS (tested in test/reliability)
  {
    topic: 'Malformed requests',
    decision:
      'A body over 64 KiB, a body that is not JSON (Content-Type other than application/json, e.g. text/plain or a ' +
      'form), malformed or empty JSON, or JSON that is not an object: bad_request (400, not 413 or 415) with ' +
      '`details: {parameter: "body", rule}`. Text containing a NUL character (U+0000) is bad_request. On /graphql ' +
      "the same failures, and GraphQL's own request errors (syntax, validation, variable types), come back as " +
      '`errors[].extensions.code` = bad_request. A JSON body with a "__proto__" key (or "constructor" holding ' +
      '"prototype") is bad_request saying so; an HTTP/1.1 request without a Host header and a CONNECT request get the ' +
      'bad_request envelope too. A refused request writes nothing.',
  },
  {
    topic: 'GraphQL query cost',
    decision: QUERY_COST_RULES,
  },
  {
    topic: 'GraphQL lookups, errors and persisted queries',
    decision:
      'A root lookup by key (store, app, product, scrapeRequest, signal, node) that finds nothing answers null at its path ' +
      'with not_found there; the other root fields of the operation keep their data (REST answers 404). Errors carry the ' +
      'same extensions.code over HTTP, SSE and WebSocket (a document that does not validate is bad_request on each). ' +
      "Automatic persisted queries (Apollo's persisted-query link, urql's persistedExchange): a hash the server does not hold " +
      'answers PERSISTED_QUERY_NOT_FOUND (the one code outside the six, the one those clients retry on); the retry with the ' +
      `document registers it once it validates (sha256Hash must be the document's SHA-256; the ${APQ_MAX_DOCUMENTS.toLocaleString('en-US')} ` +
      "most recently used are kept), and it is priced and charged like any other operation. A frontend's own manifest " +
      "(persisted-documents.json from graphql-codegen's client preset, SHA-256 or SHA-1 keys) is loaded from " +
      'PERSISTED_DOCUMENTS_FILE; its documents are sent by hash (extensions.persistedQuery) or as documentId.',
  },
  {
    topic: 'Keys in transit and at rest',
    decision:
      'Only the SHA-256 of a key is stored (and its first 12 characters, to tell keys apart in listings); a presented ' +
      'key is looked up by its digest and compared in constant time. A near-miss key is refused exactly like any ' +
      'unknown key. Nothing shaped like a key is ever written to the logs or echoed in an error (it is replaced by ' +
      '`[redacted]`), and an X-Request-Id that looks like a key is replaced by a generated id.',
  },
  {
    topic: 'Outbound requests (scrapes and webhooks)',
    decision:
      'Scrape targets are domain names: an IP address in any spelling (dotted, decimal, octal, hex, IPv6) or ' +
      'localhost is bad_request. callbackUrl must be https, without credentials, not a name that means this machine ' +
      '(localhost or any name under .localhost, in any case, with or without a trailing dot: refused without a DNS ' +
      'lookup), and not an IP address of a private, loopback, link-local, carrier-grade NAT or reserved range. Names are checked after DNS resolution, on every ' +
      'connection and every redirect: a store or callback whose name resolves to such an address, or a storefront ' +
      'that redirects to one, is never connected to (the scrape fails with a failureReason saying so; the webhook ' +
      'delivery fails). An IPv6 address of a transition form (IPv4-compatible, mapped, translated, NAT64, 6to4, ' +
      'Teredo) is judged by the IPv4 address it carries. A storefront redirect is followed only within the same store ' +
      '(http to https, the bare name to www. and back); a redirect to another host means the store moved: the scrape ' +
      'fails with a failureReason "<domain> moved: <path> redirects to <host>" and nothing of that host is written ' +
      'under the requested domain (request a scrape of the new host). A storefront answering 429 (or 503 with ' +
      'Retry-After) is waited out within the job, Retry-After seconds at a time, at most 30 s a wait and 3 times; past ' +
      'that the scrape fails with a failureReason naming the rate limit.',
  },
  {
    topic: 'Security headers',
    decision:
      'Every answer carries X-Content-Type-Options: nosniff, Referrer-Policy: no-referrer, X-Frame-Options: DENY and ' +
      "a Content-Security-Policy: `default-src 'none'; frame-ancestors 'none'` on everything but HTML pages. The " +
      'pages with scripts (GraphiQL at /graphql, the /docs reference, the operations console at /dashboard/scrapes) ' +
      "send `script-src 'nonce-N' 'strict-dynamic'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; " +
      "frame-ancestors 'none'`, N a fresh random value (128 bits) for each answer and set on every script tag of " +
      'that answer: a script or inline event handler (onclick=…) that did not come with the page never runs, and ' +
      "the browser reports it (securitypolicyviolation). 'strict-dynamic' lets the pages' own scripts load their " +
      "chunks; GraphiQL's editor runs in blob: workers. eval is not allowed (Scalar's one probe for it is refused, " +
      "and it does without). HTML without scripts (GET / in a browser) sends `script-src 'none'; object-src 'none'; " +
      "base-uri 'none'; frame-ancestors 'none'`. Pages with a nonce are not stored in shared caches (/docs/ is " +
      'Cache-Control: no-cache, its script still public for 5 minutes). Data answers are Cache-Control: no-store; ' +
      'discovery documents state their own caching. ' +
      'Strict-Transport-Security (max-age one year) is sent when the request came over TLS, directly or through a ' +
      'proxy that sets X-Forwarded-Proto: https; TLS itself is terminated in front of the service.',
  },
  {
    topic: 'Operations console key',
    decision:
      "The operations console (/dashboard/scrapes) keeps the API key typed into it in the page's memory only: not " +
      'in sessionStorage or localStorage, which every page of the origin can read (GraphiQL, /docs), and not in a ' +
      'cookie, since the API never authenticates by cookie (no cookie means no cross-site request forgery, and CORS ' +
      'stays credential-free). A reload or a new tab asks for the key again. The key travels as an Authorization ' +
      'header, never in a URL; GraphiQL likewise keeps its headers pane out of storage.',
  },
  {
    topic: 'MCP',
    decision:
      'POST /mcp speaks the Model Context Protocol over Streamable HTTP, stateless (GET and DELETE answer 405): one ' +
      "tool per data route, named by its operationId, its input schema the JSON Schema of the route's path, query and " +
      "body parameters, the usage rules in the server's instructions. A call needs the same key header and is " +
      'charged, limited and refused exactly as the REST request; a refusal is a tool error whose text is the error ' +
      "envelope. Desktop agents use `npm run -s mcp`, a stdio relay to a service's /mcp.",
  },
  {
    topic: 'Exports',
    decision:
      'GET /v1/stores, /v1/products, /v1/stores/{domain}/products and /v1/apps/{slug}/stores answer an export only ' +
      'when asked: `format=csv` or `format=ndjson`, or an Accept header that prefers text/csv or application/x-ndjson ' +
      'to application/json by RFC 9110 negotiation (q-values, then order); `*/*`, a JSON-first list or `format=json` ' +
      'get the JSON page. An export holds the list from offset to its end, at most `limit` items when limit is given, ' +
      "never past the plan's result window, fetched in pages of 100, each charged as one call of the route; every " +
      'page is charged before the first byte is sent, so a quota that cannot pay for the whole file refuses it (429) ' +
      'and a started export is never cut by a limit; such a refusal still counts the one call that read the first ' +
      "page and learned the list's size. X-Export-Total (items in the list), X-Export-Rows (items in the " +
      'file) and X-Export-Complete (whether the file reaches the end of the list) come before the body; the last line ' +
      'repeats them: `#export rows=R total=T complete=true|false` in CSV, `{"export":{"total":T,"rows":R,"complete":…}}` ' +
      'in NDJSON. A file without that line was cut off by a failure. A CSV text cell a spreadsheet would run as a formula ' +
      '(=, +, -, @ first, also after leading spaces, no-break or ideographic spaces, or in full-width form such as ＝) ' +
      'starts with an apostrophe.',
  },
  {
    topic: 'CORS',
    decision:
      '/v1, /graphql and /mcp may be called from any origin (Access-Control-Allow-Origin: *) without credentials: keys ' +
      'travel in headers, never cookies. Preflights are answered 204 without a key, allowing GET, POST, PATCH, DELETE ' +
      'and the headers Authorization, X-Api-Key, Content-Type, X-Request-Id and Mcp-Protocol-Version, cached for 2 hours; answers expose ' +
      'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit-Policy, RateLimit, Retry-After and ' +
      'X-Request-Id to the page.',
  },
];
