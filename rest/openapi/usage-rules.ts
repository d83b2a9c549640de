// The usage rules of spec part 1, as every self-description document states them.
export const USAGE_RULES: readonly string[] = [
  'Search first, then fetch by the domain the API returned. Do not guess domains.',
  'Revenue (`monthlyRevenueUsd`) is a modeled low/high band, not merchant-reported sales. Never treat it as audited ' +
    'financials; label a midpoint as the midpoint of a model.',
  'Visit counts and third-party traffic fields are modeled estimates.',
  '`isDropshipper` is a classifier output: present it as "classified as a dropshipper", not as a legal fact.',
  'Change feeds are diffs between observations (scrapes), not a complete event stream.',
  'Empty arrays and zeros mean no observation, not an error. When third-party traffic data is missing, ' +
    '`traffic.latest` is null.',
  'Money is USD unless a product carries its own currency.',
  'Signals are scoped to the owner of the API key. Catalog routes are global.',
];

export const PAGINATION_RULE =
  'Every list takes `limit` (integer 1 to 100, default 20) and `offset` (integer, default 0) and answers ' +
  '`{data, page: {limit, offset, count, hasMore, total}}`. Stop when `page.hasMore` is false; never request a further page.';

export const AUTH_RULE =
  'Data routes need a key in one header: `Authorization: Bearer <API_KEY>` or `X-Api-Key: <API_KEY>`; never in the ' +
  'query string. A server in open-dev mode (no keys configured) accepts requests without one. Discovery routes ' +
  '(/, /v1/llms.txt, /v1/docs.md, /v1/openapi.json, /v1/health, /v1/examples) need no key and are not rate limited.';
