// docs.md's "Crawler" section: what a storefront owner sees of us and how we behave on their site.
// The crawler's User-Agent links here (CRAWLER_CONTACT_URL, by default /v1/docs.md#crawler).
import * as budget from '../../src/crawler/discovery-budget.ts';
import * as policy from '../../src/storefront/observation-policy.ts';
import { CRAWLER_TOKEN, MAX_CRAWL_DELAY_S, ROBOTS_TTL_MS } from '../../src/storefront/robots.ts';
import { RATE_LIMIT_MAX_WAIT_S } from '../../src/storefront/storefront-client.ts';

export const CRAWLER_SECTION = [
  `This service reads the public surface of Shopify storefronts: the homepage, \`/meta.json\`, ` +
    '`/products.json` pages, best-seller collections and, for Signals watches, `/products/<handle>.js`. It never ' +
    "logs in, submits forms, runs a page's scripts or reads anything a visitor could not.\n",
  `- **User-Agent**: \`${CRAWLER_TOKEN}/<version> (+<contact URL>)\`; the contact URL is set by the operator ` +
    '(CRAWLER_CONTACT_URL) and defaults to this section; in production the crawler does not start while that contact is local (localhost).',
  `- **robots.txt**: read before anything else and honoured for every path, for the group naming ` +
    `\`${CRAWLER_TOKEN}\`, else \`*\`; kept for ${ROBOTS_TTL_MS / 60_000} minutes. A missing robots.txt (4xx) ` +
    'allows everything; one answering 429 or 5xx means wait: nothing of the store is read until it answers (and not ' +
    'before its Retry-After). A `Crawl-delay` ' +
    `is honoured up to ${MAX_CRAWL_DELAY_S} s.`,
  '- **Pace**: requests to one host are spaced apart (EGRESS_HOST_INTERVAL_MS, 500 ms by default) and read one ' +
    'at a time: never more than one request in flight to a host, across scrapes, Signals probes, observations and ' +
    'discovery, and across every worker process sharing the database. ' +
    `A 429 or 503 with Retry-After is waited out when it asks for at most ${RATE_LIMIT_MAX_WAIT_S} s; ` +
    'a longer one ends the read, and nothing more is asked of that host until the time it named, by any process, ' +
    'also after a restart.',
  '- **Names**: a store is read at the name given; when that name does not resolve or refuses the connection, its ' +
    'other form (`www.` added or removed) is tried before the read fails.',
  '- **Password-protected stores** (their pages lead to `/password`) fail as `password_protected`, a temporary ' +
    'state: they are tried again later like a busy store.',
  '- **Synthetic stores** (the demo catalog, under the reserved `.example` domain) are never contacted on the network, ' +
    'scheduled or taken in by discovery; their history is marked `synthetic: true`. Outside production a scrape or ' +
    'probe of one reads the demo storefront the server itself serves for it (DEMO_STOREFRONTS).',
  '',
  '### Re-observation\n',
  "Every real store is observed again on a schedule kept in the database; each observation rewrites the store's " +
    'row (modeled figures recomputed by the same model functions), its products and apps, records the changes ' +
    "since the previous observation (`/v1/changes`, `/v1/products/changes`) and writes that day's history snapshot " +
    '(`synthetic: false`). The next observation comes, by popularity (modeled monthly visits), after ' +
    policy.POPULARITY_TIERS.map(
      (t) =>
        `${t.intervalHours / 24} day${t.intervalHours === 24 ? '' : 's'}${t.minVisits > 0 ? ` at ${t.minVisits.toLocaleString('en-US')} visits or more` : ' below'}`,
    ).join(', ') +
    `; a store that changed at every observation comes up to twice as often, one that never changes up to half as often, ` +
    `always between ${policy.MIN_INTERVAL_HOURS} hours and ${policy.MAX_INTERVAL_HOURS / 24} days, each time shifted by up to ` +
    `±${policy.JITTER * 100}% so stores never come due in a herd. A failed observation is retried after ` +
    `${policy.FAILURE_BACKOFF_MINUTES} minutes, doubling per failure up to the store's interval, and never before a ` +
    'Retry-After the store sent. On-demand scrapes run apart from the schedule and never wait behind it; a scrape counts as ' +
    'an observation.',
  '',
  `A store whose storefront is gone (its name no longer resolves, its homepage or products.json answers 404, it is ` +
    `no longer a Shopify storefront, or it redirects to another host) ${policy.VANISH_AFTER_FAILURES} times with no good ` +
    "observation between is `vanished` (the profile's `observation.presence`): it leaves search results and grouped " +
    `rows, stays readable by its domain with its history, and is looked at again every ${policy.VANISHED_RECHECK_HOURS / 24} ` +
    'days; one good observation makes it active again. A store is never deleted by the crawler.',
  '',
  'A store whose storefront redirects (301) to a new host serving the same shop (the same `<handle>.myshopify.com`) ' +
    'is followed there: it keeps its id, history, watches and apps under its new domain, a change record ' +
    '(`/v1/changes`, entity `store`, changeType `domain_changed`) says it moved, and `GET /v1/stores/{old domain}` ' +
    'answers the store under its new domain (its `domain` field says which). A redirect to a host serving another ' +
    'shop is a failed observation, and that host is offered to discovery.',
  '',
  '### Discovery\n',
  'New stores come from imports (`npm run catalog -- import FILE`), from links on observed homepages, and from the ' +
    'new hosts of moved stores. Each candidate enters the catalog only once validated as a storefront (a Shopify ' +
    'homepage and a products.json product list), and only once: not when the catalog holds its domain or the same ' +
    'store under another name (the same `<handle>.myshopify.com`). Every candidate is canonicalised at the door with ' +
    "the API's domain rules (lower case, no scheme, port, path or userinfo, `www.` folded); IP addresses and names " +
    'that are not public DNS names are refused. A candidate that asks to wait (Retry-After) is not asked again ' +
    'before that time.',
  '',
  `Links are followed within budgets: at most ${budget.DEFAULT_DISCOVERY_BUDGET.maxDepth} links away from an ` +
    `imported or scraped store (CATALOG_DISCOVERY_MAX_DEPTH), and per ${budget.BUDGET_WINDOW_HOURS} hours at most ` +
    `${budget.DEFAULT_DISCOVERY_BUDGET.perSourceStore} candidates validated per linking store (CATALOG_DISCOVERY_PER_SOURCE), ` +
    `${budget.DEFAULT_DISCOVERY_BUDGET.perRegistrableDomain} per registrable domain (CATALOG_DISCOVERY_PER_DOMAIN) and ` +
    `${budget.DEFAULT_DISCOVERY_BUDGET.daily.toLocaleString('en-US')} in all (CATALOG_DISCOVERY_DAILY). A candidate over ` +
    `budget is not dropped: it waits (pending, its reason says so), is looked at again every ` +
    `${budget.OVER_BUDGET_WAIT_MINUTES} minutes and is validated when the budget allows. Imports and moved stores' ` +
    'new hosts spend no budget.',
].join('\n');
