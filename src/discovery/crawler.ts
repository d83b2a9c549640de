// docs.md's "Crawler" section: what a storefront owner sees of us and how we behave on their site.
// The crawler's User-Agent links here (CRAWLER_CONTACT_URL, by default /v1/docs.md#crawler).
import { CRAWLER_TOKEN, MAX_CRAWL_DELAY_S, ROBOTS_TTL_MS } from '../storefront/robots.ts';
import { RATE_LIMIT_MAX_WAIT_S } from '../storefront/storefront-client.ts';

export const CRAWLER_SECTION = [
  `This service reads the public surface of Shopify storefronts: the homepage, \`/meta.json\`, ` +
    '`/products.json` pages, best-seller collections and, for Signals watches, `/products/<handle>.js`. It never ' +
    'logs in, submits forms, runs a page\'s scripts or reads anything a visitor could not.\n',
  `- **User-Agent**: \`${CRAWLER_TOKEN}/<version> (+<contact URL>)\`; the contact URL is set by the operator ` +
    '(CRAWLER_CONTACT_URL) and defaults to this section.',
  `- **robots.txt**: read before anything else and honoured for every path, for the group naming ` +
    `\`${CRAWLER_TOKEN}\`, else \`*\`; kept for ${ROBOTS_TTL_MS / 60_000} minutes. A missing robots.txt (4xx) ` +
    'allows everything; one answering 5xx stops every read of the store until it answers again. A `Crawl-delay` ' +
    `is honoured up to ${MAX_CRAWL_DELAY_S} s.`,
  '- **Pace**: requests to one host are spaced apart (EGRESS_HOST_INTERVAL_MS, 500 ms by default) and read one ' +
    `at a time. A 429 or 503 with Retry-After is waited out when it asks for at most ${RATE_LIMIT_MAX_WAIT_S} s; ` +
    'a longer one ends the read.',
  '- **Synthetic stores** (the demo catalog, under the reserved `.example` domain) are never contacted.',
].join('\n');
