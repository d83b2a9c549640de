// The demo storefronts: one HTTP server on loopback answering, by Host header, as the storefront of
// every synthetic (.example) store of the catalog, shaped as Shopify answers (the homepage with its
// storefront globals and app loaders, /meta.json, /products.json pages, the best-sellers
// collection, /products/<handle>.js with stock, /robots.txt). The egress sends the reserved
// .example names here (withReservedDomain), so scrapes, probes and observations of seeded stores
// run through the same reading code as real storefronts, without a request leaving the machine.
// On by default outside production (DEMO_STOREFRONTS), refused in production (config.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import type { Config } from '../../platform/config.ts';
import { withReservedDomain } from '../../platform/egress/overrides.ts';
import type { Logger } from '../../platform/logger.ts';
import { isSyntheticDomain, SYNTHETIC_TLD } from '../../stores/domain.ts';
import { demoCatalog, type DemoCatalog, type DemoProduct, type DemoStore } from './demo-catalog.ts';

const PAGE_LIMIT = 250;

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const decimal = (amount: number) => amount.toFixed(2);
const iso = (date: Date | null) => (date ? date.toISOString() : null);

function variantsOf(product: DemoProduct) {
  return Array.from({ length: product.variantCount }, (_, i) => ({
    id: product.id * 1_000 + i + 1,
    title: product.variantCount === 1 ? 'Default Title' : `Option ${i + 1}`,
    sku: `${product.handle.slice(0, 40).toUpperCase()}-${i + 1}`,
  }));
}

/** a product of products.json (decimal strings) */
function productJson(product: DemoProduct) {
  return {
    id: product.id,
    title: product.title,
    handle: product.handle,
    vendor: product.vendor,
    product_type: product.productType ?? '',
    published_at: iso(product.publishedAt),
    images: product.imageUrl ? [{ src: product.imageUrl }] : [],
    variants: variantsOf(product).map((v) => ({
      ...v,
      price: decimal(product.price),
      compare_at_price: product.compareAtPrice === null ? null : decimal(product.compareAtPrice),
      available: product.available,
    })),
  };
}

function homepage(store: DemoStore): string {
  const globals = [
    store.themeName ? `Shopify.theme = ${JSON.stringify({ name: store.themeName, id: 1 })};` : '',
    `Shopify.currency = ${JSON.stringify({ active: store.currency, rate: '1.0' })};`,
    store.countryCode ? `Shopify.country = "${store.countryCode}";` : '',
  ].join('\n');
  const apps = store.appLiterals
    .map((literal) =>
      literal.includes('.')
        ? `<script src="https://${escapeHtml(literal)}${literal.endsWith('.js') ? '' : '/loader.js'}" async></script>`
        : `<div class="shopify-app-block" data-block-handle="${escapeHtml(literal)}"></div>`,
    )
    .join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(store.name)}</title>
<script>var Shopify = Shopify || {};
${globals}</script>
${apps}
</head><body><div id="shopify-section-header" class="shopify-section"><h1>${escapeHtml(store.name)}</h1>
<p>A demo storefront of the synthetic catalog, served in-process.</p></div></body></html>`;
}

type Answer = { status: number; type: string; body: string };
const json = (value: unknown): Answer => ({
  status: 200,
  type: 'application/json; charset=utf-8',
  body: JSON.stringify(value),
});
const notFound: Answer = { status: 404, type: 'text/plain; charset=utf-8', body: 'Not Found' };

async function answer(catalog: DemoCatalog, host: string, url: URL): Promise<Answer> {
  if (!isSyntheticDomain(host))
    return {
      status: 421,
      type: 'text/plain; charset=utf-8',
      body: 'the demo storefronts answer only for .example names',
    };
  const domain = host.replace(/^www\./, '');
  if (url.pathname === '/robots.txt')
    return {
      status: 200,
      type: 'text/plain; charset=utf-8',
      body: 'User-agent: *\nDisallow: /checkout\nDisallow: /cart\n',
    };
  const store = await catalog.store(domain);
  if (!store) return notFound;
  const limit = Math.min(PAGE_LIMIT, Math.max(1, Number(url.searchParams.get('limit')) || 30));
  const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
  switch (url.pathname) {
    case '/':
      return { status: 200, type: 'text/html; charset=utf-8', body: homepage(store) };
    case '/meta.json':
      return json({
        name: store.name,
        description: null,
        currency: store.currency,
        country: store.countryCode,
        published_products_count: store.products.length,
      });
    case '/products.json':
      return json({
        products: store.products.slice((page - 1) * limit, page * limit).map(productJson),
      });
    case '/collections/best-sellers/products.json': {
      const ranked = store.products
        .filter((p) => p.bestSellerRank !== null)
        .sort((a, b) => a.bestSellerRank! - b.bestSellerRank!);
      return json({ products: ranked.slice((page - 1) * limit, page * limit).map(productJson) });
    }
  }
  const handle = /^\/products\/([^/]+)\.js$/.exec(url.pathname)?.[1];
  const product =
    handle === undefined
      ? undefined
      : store.products.find((p) => p.handle === decodeURIComponent(handle));
  if (!product) return notFound;
  const cents = (amount: number) => Math.round(amount * 100);
  return json({
    id: product.id,
    title: product.title,
    handle: product.handle,
    variants: variantsOf(product).map((v) => {
      const stock = catalog.readStock(domain, v.id);
      return {
        ...v,
        price: cents(product.price),
        compare_at_price: product.compareAtPrice === null ? null : cents(product.compareAtPrice),
        available: product.available && stock > 0,
        inventory_quantity: stock,
      };
    }),
  });
}

export interface DemoStorefronts {
  /** http://127.0.0.1:<port> */
  origin: URL;
  close(): Promise<void>;
}

export async function startDemoStorefronts(
  pool: Pick<pg.Pool, 'query'>,
  logger: Logger,
): Promise<DemoStorefronts> {
  const catalog = demoCatalog(pool);
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    answer(catalog, host, new URL(req.url ?? '/', 'http://demo'))
      .then(({ status, type, body }) => res.writeHead(status, { 'content-type': type }).end(body))
      .catch((error: unknown) => {
        logger.warn({ err: error, host }, 'demo storefront failed to answer');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('demo storefront error');
      });
  });
  await new Promise<void>((resolve, reject) =>
    server.once('error', reject).listen(0, '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    origin: new URL(`http://127.0.0.1:${port}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The configuration with the demo storefronts started and the .example names sent to them, when
 * they are on (DEMO_STOREFRONTS; by default everywhere but production); `close` stops them.
 */
export async function withDemoStorefronts(
  config: Config,
  pool: Pick<pg.Pool, 'query'>,
  logger: Logger,
): Promise<{ config: Config; close(): Promise<void> }> {
  const enabled = config.DEMO_STOREFRONTS ?? config.NODE_ENV !== 'production';
  if (!enabled || config.NODE_ENV === 'production') return { config, close: async () => undefined };
  const demo = await startDemoStorefronts(pool, logger);
  logger.debug(
    { origin: demo.origin.href },
    `demo storefronts answer for the synthetic .${SYNTHETIC_TLD} stores`,
  );
  return {
    config: {
      ...config,
      EGRESS_OVERRIDES: withReservedDomain(config.EGRESS_OVERRIDES, SYNTHETIC_TLD, demo.origin),
    },
    close: demo.close,
  };
}
