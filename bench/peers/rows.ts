// The peer rows: the same answer asked of the service, of PostGraphile 5 on the same database and of
// the hand-written floor. Each row rotates through real values of the catalog sample, the same
// values in the same order for all three.
// - store card by domain, GraphQL: the card of spec part 2 (the StoreCard fragment: card columns, the
//   newest traffic month, whether the legacy store holds a summary for `sources`).
// - store card by domain, card columns only, GraphQL: the same card without its relations (no traffic,
//   no sources): one row of stores by its unique key. Issue 33's "bare card" is this row (its table
//   sets this row's figures against the floor's card), so the floor target applies to both cards.
// - store profile by domain, REST: GET /v1/stores/{domain}, the full profile (every store column,
//   the newest traffic month, the app stack, the legacy summary, the crawler's observation schedule);
//   PostGraphile is asked for the same data in one GraphQL request.
// - filtered list (vertical, sort by visits, 20 rows), REST and GraphQL: the page of cards and its
//   total; PostGraphile is asked for totalCount, its exact count (REST always answers page.total).
// - the same GraphQL list without totalCount, asked of both without it: the page alone.
// - its second page (rows 21 to 40), without totalCount: the service by the cursor its first page
//   ends on (`after`), PostGraphile by `offset: 20`, the floor by offset.
// - a list by country in the default order (revenue, then visits, then id), 20 rows, without
//   totalCount, GraphQL: the page alone, the order named in full to PostGraphile.
// - a store's products (20 rows, best-sellers first by rank, then by id), GraphQL: the store by its
//   domain and the first page of its products, PostGraphile asked for the same order.
import { listCursor } from '../../src/graphql/cursors.ts';
import type { CatalogSample } from '../catalog.ts';
import type { BenchRequest } from '../load.ts';

/** The targets every row is judged by: the service's req/s at least this many times PostGraphile's, at every connection count */
export const POSTGRAPHILE_TARGET = 1.5;
/** and on both store cards (with and without relations), at least this share of the floor's */
export const CARD_FLOOR_TARGET = 0.8;

export interface PeerRow {
  route: string;
  /** the least share of the floor's req/s this row must reach (the store card), if any */
  floorTarget?: number;
  service: BenchRequest[];
  postgraphile: BenchRequest[];
  plain: BenchRequest[];
}

const graphql = (query: string, variables: Record<string, unknown>): BenchRequest => ({
  method: 'POST',
  path: '/graphql',
  body: JSON.stringify({ query, variables }),
});
const get = (path: string): BenchRequest => ({ method: 'GET', path });

const SERVICE_CARD_FIELDS = `domain monthlyVisits monthlyRevenueUsd { low high } isDropshipper serviceRating serviceGrade
  vertical countryCode traffic { latest { month organic paid social direct referral source } } sources`;
const SERVICE_CARD = `query StoreCard($domain: String!) { store(domain: $domain) { ${SERVICE_CARD_FIELDS} } }`;
const SERVICE_LIST = `query FilteredStores($vertical: String!) {
  stores(filter: { vertical: $vertical }, sort: VISITS, first: 20) {
    totalCount pageInfo { hasNextPage } edges { node { ${SERVICE_CARD_FIELDS} } } } }`;
const SERVICE_LIST_NO_TOTAL = `query FilteredStoresPage($vertical: String!) {
  stores(filter: { vertical: $vertical }, sort: VISITS, first: 20) {
    pageInfo { hasNextPage } edges { node { ${SERVICE_CARD_FIELDS} } } } }`;
const SERVICE_LIST_AFTER = `query FilteredStoresAfter($vertical: String!, $after: String!) {
  stores(filter: { vertical: $vertical }, sort: VISITS, first: 20, after: $after) {
    pageInfo { hasNextPage } edges { node { ${SERVICE_CARD_FIELDS} } } } }`;
/** the endCursor of a list's first page of 20: the list and the position of its 20th row */
const FIRST_PAGE_END = listCursor('Query.stores', 19);
const SERVICE_COUNTRY_LIST = `query StoresByCountry($countryCode: String!) {
  stores(filter: { countryCode: $countryCode }, sort: REVENUE, first: 20) {
    pageInfo { hasNextPage } edges { node { ${SERVICE_CARD_FIELDS} } } } }`;
const PRODUCT_FIELDS = 'handle title price isBestSeller bestSellerRank';
const SERVICE_PRODUCTS = `query StoreProducts($domain: String!) { store(domain: $domain) {
  products(first: 20) { pageInfo { hasNextPage } edges { node { ${PRODUCT_FIELDS} } } } } }`;
const CARD_COLUMNS = `domain monthlyVisits isDropshipper serviceRating serviceGrade vertical countryCode`;
const SERVICE_CARD_COLUMNS = `query StoreCardColumns($domain: String!) { store(domain: $domain) {
  ${CARD_COLUMNS} monthlyRevenueUsd { low high } } }`;

const PG_LATEST = `trafficMonthliesByStoreId(first: 1, orderBy: PRIMARY_KEY_DESC) {
  nodes { month organicPct paidPct socialPct directPct referralPct source } }`;
const PG_CARD_FIELDS = `domain monthlyVisits revenueLowUsd revenueHighUsd isDropshipper serviceRating serviceGrade
  vertical countryCode legacySummary { domain } ${PG_LATEST}`;
const PG_CARD = `query StoreCard($domain: String!) { storeByDomain(domain: $domain) { ${PG_CARD_FIELDS} } }`;
const PG_PROFILE = `query StoreProfile($domain: String!) { storeByDomain(domain: $domain) {
  rowId domain name legacyId countryCode currency industry vertical category themeName productCount bestSellerCount
  appCount medianPriceUsd socialFollowers dropshipSignals monthlyVisits revenueLowUsd revenueHighUsd conversionLowPct
  conversionHighPct averageOrderValueUsd adSpendUsd isDropshipper dropshipperScore serviceRating serviceGrade
  visitsChangePct revenueChangePct firstSeenAt lastScrapedAt updatedAt
  legacySummary { legacyId doc } ${PG_LATEST}
  storeAppsByStoreId { nodes { appByAppId { slug name developer category pricing rating reviewCount appStoreUrl installCount } } }
  observationScheduleByStoreId { presence presenceSince lastObservedAt nextAt intervalHours changeRate consecutiveFailures failureKind failureReason movedTo } } }`;
const PG_LIST = `query FilteredStores($vertical: String!) {
  allStores(condition: { vertical: $vertical }, orderBy: [MONTHLY_VISITS_DESC, PRIMARY_KEY_ASC], first: 20) {
    totalCount pageInfo { hasNextPage } nodes { ${PG_CARD_FIELDS} } } }`;
const PG_LIST_NO_TOTAL = `query FilteredStoresPage($vertical: String!) {
  allStores(condition: { vertical: $vertical }, orderBy: [MONTHLY_VISITS_DESC, PRIMARY_KEY_ASC], first: 20) {
    pageInfo { hasNextPage } nodes { ${PG_CARD_FIELDS} } } }`;
const PG_LIST_OFFSET = `query FilteredStoresAfter($vertical: String!) {
  allStores(condition: { vertical: $vertical }, orderBy: [MONTHLY_VISITS_DESC, PRIMARY_KEY_ASC], first: 20, offset: 20) {
    pageInfo { hasNextPage } nodes { ${PG_CARD_FIELDS} } } }`;
const PG_CARD_COLUMNS = `query StoreCardColumns($domain: String!) { storeByDomain(domain: $domain) {
  ${CARD_COLUMNS} revenueLowUsd revenueHighUsd } }`;

const PG_COUNTRY_LIST = `query StoresByCountry($countryCode: String!) {
  allStores(condition: { countryCode: $countryCode }, orderBy: [REVENUE_HIGH_USD_DESC, MONTHLY_VISITS_DESC, PRIMARY_KEY_ASC], first: 20) {
    pageInfo { hasNextPage } nodes { ${PG_CARD_FIELDS} } } }`;
const PG_PRODUCTS = `query StoreProducts($domain: String!) { storeByDomain(domain: $domain) {
  productsByStoreId(first: 20, orderBy: [IS_BEST_SELLER_DESC, BEST_SELLER_RANK_ASC, PRIMARY_KEY_ASC]) {
    pageInfo { hasNextPage } nodes { ${PRODUCT_FIELDS} } } } }`;

export function buildPeerRows({ stores, verticals, countries }: CatalogSample): PeerRow[] {
  const domains = stores.map((s) => s.domain);
  const listVerticals = verticals.slice(0, 8);
  const q = (vertical: string) => new URLSearchParams({ vertical, sort: 'visits' }).toString();
  return [
    {
      route: 'store card by domain · GraphQL',
      floorTarget: CARD_FLOOR_TARGET,
      service: domains.map((domain) => graphql(SERVICE_CARD, { domain })),
      postgraphile: domains.map((domain) => graphql(PG_CARD, { domain })),
      plain: domains.map((domain) => get(`/floor/cards/${encodeURIComponent(domain)}`)),
    },
    {
      route: 'store card by domain, card columns only (no relations) · GraphQL',
      floorTarget: CARD_FLOOR_TARGET,
      service: domains.map((domain) => graphql(SERVICE_CARD_COLUMNS, { domain })),
      postgraphile: domains.map((domain) => graphql(PG_CARD_COLUMNS, { domain })),
      plain: domains.map((domain) => get(`/floor/card-columns/${encodeURIComponent(domain)}`)),
    },
    {
      route: 'store profile by domain · REST GET /v1/stores/{domain}',
      service: domains.map((domain) => get(`/v1/stores/${encodeURIComponent(domain)}`)),
      postgraphile: domains.map((domain) => graphql(PG_PROFILE, { domain })),
      plain: domains.map((domain) => get(`/floor/stores/${encodeURIComponent(domain)}`)),
    },
    {
      route:
        'filtered list (vertical, sort by visits, 20 rows) with page.total · REST GET /v1/stores, PostGraphile asked for totalCount',
      service: listVerticals.map((vertical) => get(`/v1/stores?${q(vertical)}`)),
      postgraphile: listVerticals.map((vertical) => graphql(PG_LIST, { vertical })),
      plain: listVerticals.map((vertical) =>
        get(`/floor/stores?${new URLSearchParams({ vertical })}`),
      ),
    },
    {
      route: 'filtered list (vertical, sort by visits, 20 rows) with totalCount · GraphQL',
      service: listVerticals.map((vertical) => graphql(SERVICE_LIST, { vertical })),
      postgraphile: listVerticals.map((vertical) => graphql(PG_LIST, { vertical })),
      plain: listVerticals.map((vertical) =>
        get(`/floor/stores?${new URLSearchParams({ vertical })}`),
      ),
    },
    {
      route: 'filtered list (vertical, sort by visits, 20 rows) without totalCount · GraphQL',
      service: listVerticals.map((vertical) => graphql(SERVICE_LIST_NO_TOTAL, { vertical })),
      postgraphile: listVerticals.map((vertical) => graphql(PG_LIST_NO_TOTAL, { vertical })),
      plain: listVerticals.map((vertical) =>
        get(`/floor/stores?${new URLSearchParams({ vertical, total: 'false' })}`),
      ),
    },
    {
      route:
        'filtered list page 2 (vertical, sort by visits, rows 21 to 40) without totalCount · GraphQL',
      service: listVerticals.map((vertical) =>
        graphql(SERVICE_LIST_AFTER, { vertical, after: FIRST_PAGE_END }),
      ),
      postgraphile: listVerticals.map((vertical) => graphql(PG_LIST_OFFSET, { vertical })),
      plain: listVerticals.map((vertical) =>
        get(`/floor/stores?${new URLSearchParams({ vertical, offset: '20', total: 'false' })}`),
      ),
    },
    {
      route: 'filtered list (country, sort by revenue, 20 rows) without totalCount · GraphQL',
      service: countries.map((countryCode) => graphql(SERVICE_COUNTRY_LIST, { countryCode })),
      postgraphile: countries.map((countryCode) => graphql(PG_COUNTRY_LIST, { countryCode })),
      plain: countries.map((country) =>
        get(`/floor/stores?${new URLSearchParams({ country, total: 'false' })}`),
      ),
    },
    {
      route: "a store's products by domain (20 rows, best-sellers first) · GraphQL",
      service: domains.map((domain) => graphql(SERVICE_PRODUCTS, { domain })),
      postgraphile: domains.map((domain) => graphql(PG_PRODUCTS, { domain })),
      plain: domains.map((domain) => get(`/floor/stores/${encodeURIComponent(domain)}/products`)),
    },
  ];
}
