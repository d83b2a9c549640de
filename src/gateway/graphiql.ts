// GraphiQL at /graphql, served by the service itself: @graphql-yoga/render-graphiql inlines the
// whole IDE (scripts, styles, editor workers) into the page, so it loads with no request leaving
// the machine. Its first tab is a working example for this API: search, then a profile by the
// domain the search returned, with the key header in the headers pane.
import type { GraphiQLOptions } from 'graphql-yoga';
import { withScriptNonces } from '../http/content-security-policy.ts';
import { SEEDED } from '../seed/seeded-catalog.ts';

const EXAMPLE_QUERY = `# Search first, then fetch by a domain the search
# returned (never a guessed one):
#  1. Run SearchStores (the run button asks which).
#  2. Put a returned domain in Variables as "domain"
#     and run StoreProfile.
# Your API key goes in the X-Api-Key header below.
# Left empty, only a server in open-dev mode (no key
# created yet) answers. Reference: /docs.

query SearchStores {
  stores(filter: { q: "${SEEDED.brand}" }, first: 5) {
    totalCount
    edges {
      node {
        domain
        name
        vertical
        countryCode
        monthlyVisits
        monthlyRevenueUsd { low high }
      }
    }
  }
}

query StoreProfile($domain: String!) {
  store(domain: $domain) {
    domain
    name
    vertical
    category
    countryCode
    monthlyVisits
    # a modeled band, not reported sales
    monthlyRevenueUsd { low high }
    # a classifier's output, not a legal fact
    isDropshipper
    serviceRating
    serviceGrade
    apps { slug name }
    products(isBestSeller: true, first: 3) {
      edges { node { handle title price currency } }
    }
  }
}
`;

const EXAMPLE_VARIABLES = JSON.stringify({ domain: SEEDED.domain }, null, 2);
const KEY_HEADER = JSON.stringify({ 'X-Api-Key': '' }, null, 2);

/** Yoga's page passes `variables` on to GraphiQL as the first tab's variables; its type does not list it. */
type PageOptions = GraphiQLOptions & { variables?: string };

const pageOptions: PageOptions = {
  title: 'Store intelligence GraphQL',
  defaultQuery: EXAMPLE_QUERY,
  variables: EXAMPLE_VARIABLES,
  // the first tab's headers pane, and every new tab's
  headers: KEY_HEADER,
  defaultHeaders: KEY_HEADER,
  defaultEditorToolsVisibility: 'headers',
  // a pasted key stays in the tab, never in the browser's storage
  shouldPersistHeaders: false,
};
export const GRAPHIQL_OPTIONS: GraphiQLOptions = pageOptions;

/** The page's options for one answer: its script tags carry that answer's CSP nonce (src/http/content-security-policy.ts). */
export type NoncedGraphiQLOptions = GraphiQLOptions & { cspNonce: string };

const rendered = new Map<string, (nonce: string) => string>();

/**
 * The offline page, rendered once per set of options (about 9 MB of inlined IDE that never changes
 * while the process runs), with each answer's nonce. The renderer is loaded with the first page,
 * not by every process that serves GraphQL.
 */
export async function renderOfflineGraphiQL(options: GraphiQLOptions): Promise<string> {
  const { cspNonce, ...pageOptions } = options as Partial<NoncedGraphiQLOptions>;
  const key = JSON.stringify(pageOptions);
  let page = rendered.get(key);
  if (page === undefined) {
    const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
    page = withScriptNonces(renderGraphiQL(pageOptions));
    rendered.set(key, page);
  }
  // without a nonce (no answer drew one) the page's script matches no policy and does not run
  return page(cspNonce ?? '');
}
