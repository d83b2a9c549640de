// A fixture storefront on loopback whose stock and prices the test moves between probes. Each host
// is a Shopify-like store: homepage, /meta.json, /products.json and Shopify's per-product JSON
// /products/<handle>.js (prices in cents, inventory_quantity unless the store hides stock).
// EGRESS_OVERRIDES sends the hosts here.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FixtureVariant {
  id: number;
  sku: string;
  title: string;
  /** price in cents, as Shopify's .js shows it */
  priceCents: number;
  stock: number;
}

export interface FixtureProduct {
  handle: string;
  title: string;
  variants: FixtureVariant[];
}

export interface FixtureShop {
  name: string;
  /** false: the storefront hides inventory_quantity */
  exposesStock: boolean;
  products: FixtureProduct[];
  /** extra homepage markup (app scripts); a test may change it between probes */
  homepage?: string;
  /** the store's currency (ISO 4217); USD unless given */
  currency?: string;
}

export interface StockStorefront {
  port: number;
  /** EGRESS_OVERRIDES for every host */
  overrides: string;
  shops: Map<string, FixtureShop>;
  setStock(host: string, variantId: number, stock: number): void;
  setPrice(host: string, variantId: number, priceCents: number): void;
  /** requests seen, as host + path */
  readonly requests: string[];
  /** answers to `path` (any host) wait `ms` first; 0 ends it */
  slow(path: string, ms: number): void;
  close(): Promise<void>;
}

const variant = (
  id: number,
  sku: string,
  title: string,
  priceCents: number,
  stock: number,
): FixtureVariant => ({ id, sku, title, priceCents, stock });

/** stock.test: a tee in two sizes and a mug. hidden.test: the same shape, stock hidden. */
export function defaultShops(): Map<string, FixtureShop> {
  return new Map([
    [
      'stock.test',
      {
        name: 'Stock Shop',
        exposesStock: true,
        products: [
          {
            handle: 'tee',
            title: 'Tee',
            variants: [variant(101, 'TEE-S', 'S', 2000, 50), variant(102, 'TEE-M', 'M', 2000, 40)],
          },
          {
            handle: 'mug',
            title: 'Mug',
            variants: [variant(201, 'MUG', 'Default Title', 1250, 30)],
          },
          {
            handle: 'cap',
            title: 'Cap',
            variants: [variant(301, 'CAP', 'Default Title', 1500, 10)],
          },
        ],
      },
    ],
    [
      'hidden.test',
      {
        name: 'Hidden Stock',
        exposesStock: false,
        products: [
          {
            handle: 'lamp',
            title: 'Lamp',
            variants: [variant(401, 'LAMP', 'Default Title', 4500, 7)],
          },
        ],
      },
    ],
  ]);
}

export async function startStockStorefront(
  shops: Map<string, FixtureShop> = defaultShops(),
): Promise<StockStorefront> {
  const requests: string[] = [];
  const delays = new Map<string, number>();
  const variantOf = (host: string, id: number) => {
    const found = shops
      .get(host)
      ?.products.flatMap((p) => p.variants)
      .find((v) => v.id === id);
    if (!found) throw new Error(`no variant ${id} on ${host}`);
    return found;
  };
  const server = http.createServer((req, res) => {
    const delay = delays.get(new URL(req.url ?? '/', 'http://fixture').pathname);
    if (delay) setTimeout(() => answer(req, res), delay);
    else answer(req, res);
  });
  const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const host = (req.headers.host ?? '').split(':')[0]!;
    const url = new URL(req.url ?? '/', 'http://fixture');
    requests.push(`${host}${url.pathname}`);
    const shop = shops.get(host);
    const json = (body: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (!shop) return void res.writeHead(404).end();
    const productJs = /^\/products\/([^/]+)\.js$/.exec(url.pathname);
    if (productJs) {
      const product = shop.products.find((p) => p.handle === decodeURIComponent(productJs[1]!));
      if (!product)
        return void res
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"errors":"Not Found"}');
      return json({
        id: product.variants[0]!.id * 10,
        title: product.title,
        handle: product.handle,
        variants: product.variants.map((v) => ({
          id: v.id,
          sku: v.sku,
          title: v.title,
          price: v.priceCents,
          available: v.stock > 0,
          ...(shop.exposesStock ? { inventory_quantity: v.stock } : {}),
        })),
      });
    }
    if (url.pathname === '/') {
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<!doctype html><html><head><title>${shop.name}</title><script>var Shopify = Shopify || {}; Shopify.shop = "${host}";` +
            `Shopify.theme = {"name":"Dawn","id":1,"role":"main"}; Shopify.currency = {"active":"${shop.currency ?? 'USD'}","rate":"1.0"};</script>` +
            `<link href="//cdn.shopify.com/s/files/1/0001/t/1/assets/base.css" rel="stylesheet"></head><body>Shop${shop.homepage ?? ''}</body></html>`,
        );
    }
    if (url.pathname === '/meta.json')
      return json({
        name: shop.name,
        description: shop.name,
        country: 'US',
        currency: shop.currency ?? 'USD',
        published_products_count: shop.products.length,
      });
    if (url.pathname === '/products.json') {
      const page = Number(url.searchParams.get('page') ?? '1');
      return json({
        products:
          page === 1
            ? shop.products.map((p) => ({
                handle: p.handle,
                title: p.title,
                vendor: shop.name,
                product_type: 'Clothing',
                published_at: '2026-01-01T00:00:00Z',
                variants: p.variants.map((v) => ({
                  price: (v.priceCents / 100).toFixed(2),
                  compare_at_price: null,
                  available: v.stock > 0,
                })),
                images: [],
              }))
            : [],
      });
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":"Not Found"}');
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    overrides: [...shops.keys()].map((h) => `${h}=http://127.0.0.1:${port}`).join(','),
    shops,
    setStock: (host, id, stock) => void (variantOf(host, id).stock = stock),
    setPrice: (host, id, priceCents) => void (variantOf(host, id).priceCents = priceCents),
    requests,
    slow: (path, ms) => void (ms > 0 ? delays.set(path, ms) : delays.delete(path)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
