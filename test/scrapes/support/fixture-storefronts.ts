// A fixture storefront server on loopback: several Shopify-like stores told apart by the Host
// header (EGRESS_OVERRIDES sends their names here). shop-a.test is ordinary; dropper.test
// dropships; changing.test changes prices, products and apps when its version is bumped;
// notshop.test is a plain website; silent.test never answers; redirect-private.test redirects to
// a private address. As real storefronts do: moved.test redirects its homepage to another store's
// host, moved-products.test only its products.json; www-first.test redirects to its own www name,
// wwwonly.test answers only on www.wwwonly.test (its apex does not resolve);
// busy.test answers products.json with 429 and Retry-After: 1 once, throttled.test always asks to
// wait two minutes. For discovery: linker.test's homepage links to linked.test (a store of its
// own) and to sites that are not storefronts; alias.test is changing.test under another name (the
// same Shopify.shop). Any host can be made to vanish (404 on every path) and come back.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FixtureProduct {
  handle: string;
  title: string;
  price: string;
  productType: string;
}

interface FixtureStore {
  name: string;
  country: string;
  currency: string;
  theme: string;
  /** extra homepage markup: app scripts, social links, phrases */
  body: string;
  products: FixtureProduct[];
  bestSellers: string[] | null;
}

const product = (
  handle: string,
  title: string,
  price: string,
  productType = 'Clothing',
): FixtureProduct => ({ handle, title, price, productType });

function changingStore(version: number): FixtureStore {
  return {
    name: 'Changing Co',
    country: 'US',
    currency: 'USD',
    theme: version === 1 ? 'Dawn' : 'Sense',
    body:
      version === 1
        ? '<script src="https://cdn.judge.me/widget.js"></script><a href="mailto:hello@changing.test">mail</a>'
        : '<script src="https://static.klaviyo.com/onsite/js/klaviyo.js"></script><a href="mailto:hello@changing.test">mail</a>',
    products:
      version === 1
        ? [
            product('mug', 'Mug', '20.00', 'Kitchen & Dining'),
            product('plate', 'Plate', '12.00', 'Kitchen & Dining'),
            product('bowl', 'Bowl', '15.00', 'Kitchen & Dining'),
          ]
        : [
            product('mug', 'Mug', '16.00', 'Kitchen & Dining'),
            product('plate', 'Plate', '12.00', 'Kitchen & Dining'),
            product('vase', 'Vase', '30.00', 'Decor'),
          ],
    bestSellers: null,
  };
}

const STORES: Record<string, (version: number) => FixtureStore> = {
  'shop-a.test': () => ({
    name: 'Shop A',
    country: 'GB',
    currency: 'GBP',
    theme: 'Dawn',
    body:
      '<a href="https://www.instagram.com/shopa/">Instagram</a><a href="https://www.facebook.com/sharer/sharer.php">share</a>' +
      '<a href="https://facebook.com/shopa.official">Facebook</a><p>Write to support@shop-a.test</p>' +
      '<div class="jdgm-widget"></div><script src="https://code.tidio.co/abc.js"></script>',
    products: [
      product('linen-shirt', 'Linen Shirt', '79.00'),
      product('wool-coat', 'Wool Coat', '240.00'),
      product('cotton-tee', 'Cotton Tee', '25.00'),
      product('silk-scarf', 'Silk Scarf', '59.00', 'Clothing Accessories'),
    ],
    bestSellers: ['wool-coat', 'linen-shirt'],
  }),
  'dropper.test': () => ({
    name: 'Gadget Drop',
    country: 'US',
    currency: 'USD',
    theme: 'Debut',
    // Printful's real storefront loader: DSers and Zendrop, which such a store may run too, work
    // from the admin and leave nothing on the page
    body: '<script src="https://static.cdn.printful.com/static/js/external/shopify-product-customizer.js?v=0.17&amp;shop=gadget-drop.myshopify.com" defer="defer"></script><p>Ships in 7-15 business days. Free worldwide shipping!</p>',
    products: Array.from({ length: 12 }, (_, i) =>
      product(`gadget-${i + 1}`, `Gadget ${i + 1}`, `${9 + i}.99`, 'Electronics'),
    ),
    bestSellers: null,
  }),
  'changing.test': changingStore,
  'alias.test': changingStore,
  'linker.test': () => ({
    name: 'Linker',
    country: 'US',
    currency: 'USD',
    theme: 'Dawn',
    body:
      '<a href="https://linked.test/collections/all">Our friends at Linked</a><a href="https://www.instagram.com/linker/">Instagram</a>' +
      '<a href="https://apps.shopify.com/judgeme">reviews</a><a href="https://nowhere-shop.test/">gone</a>',
    products: [product('poster', 'Poster', '15.00', 'Decor')],
    bestSellers: null,
  }),
  'linked.test': () => ({
    name: 'Linked',
    country: 'CA',
    currency: 'CAD',
    theme: 'Craft',
    body: '',
    products: [product('candle', 'Candle', '22.00', 'Decor')],
    bestSellers: null,
  }),
};

function homepage(store: FixtureStore): string {
  return `<!doctype html><html><head><title>${store.name}</title>
<script>var Shopify = Shopify || {}; Shopify.shop = "${store.name.toLowerCase().replace(/ /g, '-')}.myshopify.com";
Shopify.theme = {"name":"${store.theme}","id":123456,"role":"main"};
Shopify.currency = {"active":"${store.currency}","rate":"1.0"};
Shopify.country = "${store.country}";</script>
<link href="//cdn.shopify.com/s/files/1/0001/t/1/assets/base.css" rel="stylesheet"></head>
<body><div class="shopify-section">${store.body}</div></body></html>`;
}

const productJson = (p: FixtureProduct) => ({
  id: p.handle.length,
  title: p.title,
  handle: p.handle,
  vendor: 'Fixture',
  product_type: p.productType,
  published_at: '2026-01-01T00:00:00Z',
  variants: [{ price: p.price, compare_at_price: null, available: true }],
  images: [{ src: `https://cdn.shopify.com/s/files/${p.handle}.jpg` }],
});

export interface FixtureStorefronts {
  port: number;
  /** EGRESS_OVERRIDES for every fixture host */
  overrides: string;
  /** bumps the version of changing.test (new prices, products, apps and theme) */
  setVersion(host: string, version: number): void;
  /** the host answers 404 on every path (its store is gone) until `restore` */
  vanish(host: string): void;
  restore(host: string): void;
  /** requests seen, as host + path */
  readonly requests: string[];
  /** requests to this path (any host, or one host's with "host/path") wait for release(), which answers them */
  hold(path: string): void;
  release(): void;
  close(): Promise<void>;
}

export const FIXTURE_HOSTS = [
  'shop-a.test',
  'dropper.test',
  'changing.test',
  'notshop.test',
  'silent.test',
  'redirect-private.test',
  'moved.test',
  'moved-products.test',
  'www-first.test',
  'www.www-first.test',
  'www.wwwonly.test',
  'busy.test',
  'throttled.test',
  'alias.test',
  'linker.test',
  'linked.test',
];

/** Stores served under another name with shop-a.test's catalog (how they answer differs). */
const SHOP_A_ALIKE = new Set([
  'moved-products.test',
  'www.www-first.test',
  'www.wwwonly.test',
  'busy.test',
  'throttled.test',
]);

export async function startFixtureStorefronts(
  options: { alsoShopA?: readonly string[] } = {},
): Promise<FixtureStorefronts> {
  // more names served with shop-a.test's catalog (a recipe's own store name, for instance)
  const shopAAlike = new Set([...SHOP_A_ALIKE, ...(options.alsoShopA ?? [])]);
  const versions = new Map<string, number>();
  const gone = new Set<string>();
  const requests: string[] = [];
  const held = new Set<string>();
  const busyAnswered = new Set<string>();
  const waiting: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    requests.push(`${(req.headers.host ?? '').split(':')[0]}${url.pathname}${url.search}`);
    if (
      held.has(url.pathname) ||
      held.has(`${(req.headers.host ?? '').split(':')[0]}${url.pathname}`)
    )
      waiting.push(() => answer(req, res));
    else answer(req, res);
  });
  const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const host = (req.headers.host ?? '').split(':')[0]!;
    const url = new URL(req.url ?? '/', 'http://fixture');
    if (host === 'silent.test') return; // never answers
    if (gone.has(host)) {
      res
        .writeHead(404, { 'content-type': 'text/html' })
        .end('<html><body>No such shop</body></html>');
      return;
    }
    if (host === 'notshop.test') {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><head><title>Just a blog</title></head><body>Hello</body></html>');
      return;
    }
    if (host === 'redirect-private.test') {
      res.writeHead(302, { location: 'http://10.0.0.5/' }).end();
      return;
    }
    if (host === 'moved.test') {
      res.writeHead(301, { location: `https://shop-a.test${url.pathname}${url.search}` }).end();
      return;
    }
    if (host === 'www-first.test') {
      res
        .writeHead(301, { location: `https://www.www-first.test${url.pathname}${url.search}` })
        .end();
      return;
    }
    if (url.pathname === '/products.json') {
      if (host === 'moved-products.test') {
        res.writeHead(302, { location: `https://shop-a.test/products.json${url.search}` }).end();
        return;
      }
      if (host === 'throttled.test' || (host === 'busy.test' && !busyAnswered.has(url.search))) {
        busyAnswered.add(url.search);
        res
          .writeHead(429, {
            'retry-after': host === 'busy.test' ? '1' : '120',
            'content-type': 'text/plain',
          })
          .end('Too Many Requests');
        return;
      }
    }
    const make = STORES[shopAAlike.has(host) ? 'shop-a.test' : host];
    if (!make) {
      res.writeHead(404).end();
      return;
    }
    const store = make(versions.get(host) ?? 1);
    const json = (body: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(homepage(store));
    } else if (url.pathname === '/meta.json') {
      json({
        name: store.name,
        description: `${store.name} online`,
        country: store.country,
        currency: store.currency,
        published_products_count: store.products.length,
      });
    } else if (url.pathname === '/products.json') {
      const page = Number(url.searchParams.get('page') ?? '1');
      json({ products: page === 1 ? store.products.map(productJson) : [] });
    } else if (url.pathname === '/collections/best-sellers/products.json' && store.bestSellers) {
      json({
        products: store.bestSellers.map((h) =>
          productJson(store.products.find((p) => p.handle === h)!),
        ),
      });
    } else if (
      url.pathname === '/collections/all/products.json' &&
      url.searchParams.get('sort_by') === 'best-selling'
    ) {
      json({ products: [...store.products].reverse().map(productJson) });
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":"Not Found"}');
    }
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    overrides: [...FIXTURE_HOSTS, ...(options.alsoShopA ?? [])]
      .map((h) => `${h}=http://127.0.0.1:${port}`)
      .join(','),
    setVersion: (host, version) => versions.set(host, version),
    vanish: (host) => gone.add(host),
    restore: (host) => gone.delete(host),
    requests,
    hold: (path) => held.add(path),
    release: () => {
      held.clear();
      for (const answerHeld of waiting.splice(0)) answerHeld();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
