// The `Example:` lines of docs.md (one per route: "Example: `METHOD /path?query {json body}`"),
// parsed for the tests that follow them literally: test/self-description/recipes.test.ts follows the
// catalog routes' on the seeded catalog, test/self-description/storefront-route-examples.test.ts the
// storefront routes' (scrapes, screenshots, Signals) against fixture storefronts.

export interface DocsExample {
  /** the line's text between the backticks */
  text: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
}

const LINE = /^Example: `(.*)`$/gm;
const REQUEST = /^(GET|POST|PATCH|DELETE) (\/\S+)(?: (\{.*\}))?$/;

/** Every Example: line of `docs`; a line that is not a request (method, path, optional JSON body) throws. */
export function docsExamples(docs: string): DocsExample[] {
  return [...docs.matchAll(LINE)].map(([, text]) => {
    const request = REQUEST.exec(text!);
    if (!request) throw new Error(`docs.md example is not METHOD /path [json]: ${text}`);
    const [, method, path, body] = request;
    return {
      text: text!,
      method: method as DocsExample['method'],
      path: path!,
      ...(body ? { body: JSON.parse(body) as Record<string, unknown> } : {}),
    };
  });
}

/** Examples that need a live storefront: scrapes, the screenshots they take, Signals watches, and alerts (matched by observations of those storefronts). */
export const needsStorefront = (path: string): boolean =>
  path.startsWith('/v1/scrapes') ||
  path.startsWith('/v1/signals') ||
  path.startsWith('/v1/alerts') ||
  path.split('?')[0]!.endsWith('/screenshot');

/** An answer with data: a non-empty `data` list, or else a non-empty object. */
export const hasData = (body: any): boolean =>
  Array.isArray(body?.data)
    ? body.data.length > 0
    : typeof body === 'object' && body !== null && Object.keys(body).length > 0;
