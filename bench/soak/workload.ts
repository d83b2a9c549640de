// The soak's mixed workload, built from what the running service itself lists (so it fits any
// catalog, seeded or real): store search (fuzzy and filtered), store profiles and their products,
// product search and detail, analytics, apps, changes, GraphQL queries, and scrape requests for
// stores already in the catalog (answered without a job). Every connection walks the whole list.
export interface SoakRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

interface StoreCard {
  domain: string;
  vertical: string | null;
  countryCode: string | null;
}

interface ProductCard {
  domain: string;
  handle: string;
  title: string;
}

const json = { 'content-type': 'application/json' };
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
const get = (path: string): SoakRequest => ({ method: 'GET', path });
const post = (path: string, payload: unknown): SoakRequest => ({
  method: 'POST',
  path,
  body: JSON.stringify(payload),
  headers: json,
});

async function list<T>(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<T[]> {
  const response = await fetch(`${baseUrl}${path}`, { headers });
  if (!response.ok)
    throw new Error(
      `building the workload: GET ${path} answered ${response.status}: ${await response.text()}`,
    );
  return ((await response.json()) as { data: T[] }).data;
}

const STORE_QUERY =
  'query ($domain: String!) { store(domain: $domain) { domain name sources monthlyVisits } }';
const STORES_QUERY = '{ stores(first: 10) { totalCount edges { node { domain name } } } }';

export async function buildWorkload(
  baseUrl: string,
  headers: Record<string, string>,
): Promise<SoakRequest[]> {
  const stores = await list<StoreCard>(baseUrl, '/v1/stores?limit=100&sort=visits', headers);
  const products = await list<ProductCard>(
    baseUrl,
    '/v1/products?isBestSeller=true&limit=50',
    headers,
  );
  const apps = await list<{ slug: string }>(baseUrl, '/v1/apps?limit=10', headers);
  if (stores.length === 0) throw new Error('building the workload: the catalog has no stores');

  const requests: SoakRequest[] = [];
  for (let i = 0; i < 20; i++) {
    const store = stores[(i * 7) % stores.length]!;
    const product = products[i % Math.max(products.length, 1)];
    // the domain's first word: a fuzzy q that finds the store and its neighbours
    const word = store.domain.split(/[.-]/)[0]!;
    requests.push(
      get(`/v1/stores/${encodeURIComponent(store.domain)}`),
      get(`/v1/stores?${q({ q: word, limit: '10' })}`),
      get(
        `/v1/stores?${q({ ...(store.vertical ? { vertical: store.vertical } : {}), ...(store.countryCode ? { countryCode: store.countryCode } : {}), sort: 'visits', limit: '20' })}`,
      ),
      get(`/v1/stores/${encodeURIComponent(store.domain)}/products?limit=20`),
      post('/graphql', { query: STORE_QUERY, variables: { domain: store.domain } }),
    );
    if (product) {
      requests.push(
        get(
          `/v1/products/${encodeURIComponent(product.domain)}/${encodeURIComponent(product.handle)}`,
        ),
        get(`/v1/products?${q({ q: product.title.split(/\s+/)[0]!.toLowerCase(), limit: '20' })}`),
      );
    }
    if (i % 4 === 0) {
      const app = apps[(i / 4) % Math.max(apps.length, 1)];
      requests.push(
        get('/v1/analytics/overview'),
        get('/v1/analytics/verticals?limit=10'),
        get(`/v1/analytics/movers?${q({ metric: 'visits', direction: 'up', minPct: '10' })}`),
        get('/v1/changes?limit=20'),
        post('/graphql', { query: STORES_QUERY }),
        // a scrape request for a store the catalog has: answered at once, no job
        post('/v1/scrapes', { domain: store.domain }),
        ...(app ? [get(`/v1/apps/${encodeURIComponent(app.slug)}`)] : [get('/v1/apps')]),
      );
    }
  }
  return requests;
}
