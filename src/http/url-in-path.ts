// The contract lets a path's {domain} be "a full URL with scheme and optional www" (spec part 4). A
// caller (or an agent) who writes it unencoded, /v1/stores/https://www.example.com/products, sends
// slashes the router reads as segments. A segment that is a bare scheme ("http:" or "https:")
// followed by "//" (or "/", when a proxy collapsed it) can only be such a URL: its scheme and host
// become the one segment they would be URL-encoded, and what follows the host stays the route's path.

const URL_IN_PATH = /\/(https?:)\/\/?([^/?#]+)\/?(?=[/?#]|$)/i;

/** `url` (path and query) with an unencoded URL in its path encoded into one segment. */
export function encodeUrlsInPath(url: string): string {
  // every request's URL passes here: one without a scheme's colon (nearly all) is left as it is
  if (!url.includes(':')) return url;
  const queryAt = url.search(/[?#]/);
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const rest = queryAt < 0 ? '' : url.slice(queryAt);
  const rewritten = path.replace(
    URL_IN_PATH,
    (_match, scheme: string, host: string) => `/${encodeURIComponent(`${scheme}//${host}`)}`,
  );
  return rewritten + rest;
}
