// The farm's answers, shaped as real Shopify storefronts answer: the homepage with the storefront
// globals (Shopify.shop, .theme, .currency, .country) and app loaders in the three forms seen in
// the wild (the asyncLoad list of JSON-escaped URLs such as "\/\/shopify.privy.com\/widget.js",
// plain script tags, theme app extension blocks, and \u002F-escaped JSON), /meta.json, the
// products.json pages (with Shopify's "\/" escaping, string prices, compare_at_price, sold-out
// variants and, on stores that expose it, inventory_quantity), /products/<handle>.js (prices in
// cents), robots.txt, and the "store unavailable" page of a closed store.
import type { AppReference } from '../../../src/seed/reference-data.ts';
import type { FarmProduct, FarmStore } from './farm-store.ts';

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', '-00:00');
const decimal = (amount: number) => amount.toFixed(2);
const cents = (amount: number) => Math.round(amount * 100);
/** Shopify's JSON escapes every slash */
const shopifyJson = (value: unknown) => JSON.stringify(value).replace(/\//g, '\\/');
const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Real loader URLs of a few apps, as their storefronts load them. */
const KNOWN_LOADERS: Record<string, (shop: string) => string> = {
  privy: (shop) => `//shopify.privy.com/widget.js?shop=${shop}`,
  'klaviyo-email-marketing': (shop) =>
    `https://static.klaviyo.com/onsite/js/klaviyo.js?company_id=Xy${shop.length}Qz&shop=${shop}`,
  judgeme: (shop) => `https://cdn.judge.me/loader.js?shop=${shop}`,
  loox: (shop) => `https://loox.io/widget/loader.js?shop=${shop}`,
};

/** The app's patterns that are plain text once `\.` is undone and `\b` dropped: host-like ones (with a dot) and markers. */
function literalsOf(app: AppReference): { hostLike: string | null; marker: string | null } {
  const plain = app.detectionPatterns
    .map((p) => p.replace(/\\b/g, '').replace(/\\\./g, '.'))
    .filter((text) => /^[a-z0-9._/-]+$/i.test(text));
  return {
    hostLike: plain.find((t) => t.includes('.')) ?? null,
    marker: plain.find((t) => !t.includes('.')) ?? null,
  };
}

export type LoaderForm = 'async-load' | 'script-tag' | 'app-block' | 'pixel-json';

/** How an app shows on the homepage: a loader URL (in one of the forms), a theme app block carrying its marker, or nothing (an app not detectable from a storefront). */
export function appMarkup(
  app: AppReference,
  shop: string,
  form: LoaderForm,
): { url: string | null; block: string | null } {
  // an app that works from the admin only runs on the store and leaves nothing on its storefront
  if (app.notDetectable) return { url: null, block: null };
  const known = KNOWN_LOADERS[app.slug];
  if (known && form !== 'app-block') return { url: known(shop), block: null };
  const { hostLike, marker } = literalsOf(app);
  if (marker && (form === 'app-block' || !hostLike)) {
    return {
      url: null,
      block: `<div class="shopify-app-block" data-block-handle="${marker}"></div>`,
    };
  }
  if (hostLike) {
    const path = hostLike.includes('/') ? hostLike : `${hostLike}/assets/loader.js`;
    return { url: `https://${path}${path.endsWith('.js') ? '' : '.js'}?shop=${shop}`, block: null };
  }
  return known ? { url: known(shop), block: null } : { url: null, block: null };
}

function loaderForm(store: FarmStore, app: AppReference): LoaderForm {
  const forms: LoaderForm[] = ['async-load', 'async-load', 'script-tag', 'app-block', 'pixel-json'];
  let h = store.index;
  for (const c of app.slug) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return forms[h % forms.length]!;
}

// biome-ignore lint/suspicious/noTemplateCurlyInString: a Shopify money format, not a JS template
const DOLLARS = '${{amount}}';

function moneyFormat(currency: string): string {
  return (
    {
      USD: DOLLARS,
      CAD: DOLLARS,
      AUD: DOLLARS,
      NZD: DOLLARS,
      GBP: '£{{amount}}',
      EUR: '€{{amount_with_comma_separator}}',
      JPY: '¥{{amount_no_decimals}}',
      INR: 'Rs. {{amount}}',
    }[currency] ?? `{{amount}} ${currency}`
  );
}

function price(store: FarmStore, amount: number): string {
  const text =
    store.currency === 'JPY' || store.currency === 'INR'
      ? Math.round(amount).toLocaleString('en-US')
      : amount.toFixed(2);
  return `${moneyFormat(store.currency).replace(/\{\{[a-z_]+\}\}/, text)} ${store.currency}`;
}

/** The inline theme styles and icon sprite a Dawn-like theme puts in every page: most of a real homepage's weight (real ones run 100-400 KB). */
function themeStyles(store: FarmStore): string {
  const rules: string[] = [];
  for (let i = 0; i < 260; i++) {
    const id = `${store.theme.id}${i}`;
    rules.push(
      `.section-template--${id}__main-padding{padding-top:${(i * 7) % 40}px;padding-bottom:${(i * 11) % 40}px}` +
        `@media screen and (min-width:750px){.section-template--${id}__main-padding{padding-top:${(i * 13) % 52}px;padding-bottom:${(i * 17) % 52}px}}` +
        `.color-scheme-${i}{--color-background:${(i * 37) % 256},${(i * 59) % 256},${(i * 83) % 256};--gradient-background:#ffffff;--color-foreground:18,18,18;--color-button:18,18,18;--color-button-text:255,255,255}`,
    );
  }
  const icons = Array.from(
    { length: 24 },
    (_, i) =>
      `<symbol id="icon-${i}" viewBox="0 0 20 20"><path d="M${i} 2.5a7.5 7.5 0 1 0 0 15 7.5 7.5 0 0 0 0-15Zm0 ${i % 9}.25a1.25 1.25 0 1 1 0 2.5 1.25 1.25 0 0 1 0-2.5Z" fill="currentColor"/></symbol>`,
  ).join('');
  return `<style data-shopify>${rules.join('\n')}</style>\n<svg xmlns="http://www.w3.org/2000/svg" style="display:none">${icons}</svg>`;
}

export function homepage(store: FarmStore, featured: readonly FarmProduct[]): string {
  const shop = `${store.myshopifyHandle}.myshopify.com`;
  const asyncUrls: string[] = [];
  const scriptTags: string[] = [];
  const pixels: string[] = [];
  const blocks: string[] = [];
  for (const app of store.apps) {
    const form = loaderForm(store, app);
    const { url, block } = appMarkup(app, shop, form);
    if (block) blocks.push(block);
    if (!url) continue;
    if (form === 'script-tag')
      scriptTags.push(`<script src="${escapeHtml(url)}" defer="defer"></script>`);
    else if (form === 'pixel-json') pixels.push(url);
    else asyncUrls.push(url);
  }
  const pixelConfig = JSON.stringify({
    shopId: store.shopId,
    pixels: pixels.map((src, i) => ({ id: `${store.shopId}${i}`, type: 'APP', src })),
  }).replace(/\//g, '\\u002F');
  const cards = featured
    .map((p) => {
      const variant = p.variants[0]!;
      const sale =
        variant.compareAtPrice !== null
          ? `<s class="price-item price-item--regular">${price(store, variant.compareAtPrice)}</s>`
          : '';
      const soldOut = p.variants.every((v) => !v.available)
        ? '<span class="badge badge--bottom-left color-inverse">Sold out</span>'
        : '';
      return `<li class="grid__item"><div class="card-wrapper product-card-wrapper"><div class="card card--standard card--media">
<div class="card__inner ratio"><img src="${p.images[0]!.src}&amp;width=533" alt="${escapeHtml(p.title)}" width="533" height="533" loading="lazy"></div>
<div class="card__content"><h3 class="card__heading h5"><a href="/products/${p.handle}" class="full-unstyled-link">${escapeHtml(p.title)}</a></h3>
<div class="price"><span class="price-item price-item--sale">${price(store, variant.price)}</span>${sale}</div>${soldOut}</div></div></div></li>`;
    })
    .join('\n');
  const phrases = store.dropshipPhrases
    .map((phrase) => `<p class="announcement-bar__message h5">${escapeHtml(phrase)}</p>`)
    .join('');
  const friends = store.links
    .map((host) => `<li><a href="https://${host}/" class="link">${host}</a></li>`)
    .join('');
  // inline theme settings: real homepages carry tens of kilobytes of them
  const settings = JSON.stringify({
    colors: Array.from({ length: 40 }, (_, i) => ({
      scheme: `scheme-${i}`,
      background: `#${((store.index * 2654435761 + i * 40503) >>> 8).toString(16).padStart(6, '0').slice(0, 6)}`,
      text: '#121212',
    })),
    typography: { header: 'assistant_n4', body: 'assistant_n4', scale: 100 },
    sections: Array.from({ length: 30 }, (_, i) => ({
      type: ['image-banner', 'rich-text', 'featured-collection', 'multicolumn', 'newsletter'][
        i % 5
      ],
      settings: { padding_top: 36, padding_bottom: 36, heading: `Section ${i}` },
    })),
  });
  return `<!doctype html>
<html class="no-js" lang="en">
  <head>
    <meta charset="utf-8">
    <meta http-equiv="X-UA-Compatible" content="IE=edge">
    <meta name="viewport" content="width=device-width,initial-scale=1">
    <link rel="canonical" href="https://${store.host}/">
    <link rel="preconnect" href="https://cdn.shopify.com" crossorigin>
    <title>${escapeHtml(store.name)}</title>
    <meta name="description" content="${escapeHtml(store.name)}: ${escapeHtml(featured[0]?.productType || 'goods')} shipped from ${escapeHtml(store.country.name)}.">
    <meta property="og:site_name" content="${escapeHtml(store.name)}">
    <meta property="og:url" content="https://${store.host}/">
    <script src="//${store.host}/cdn/shop/t/${store.theme.id % 97}/assets/constants.js?v=${store.theme.id}" defer="defer"></script>
    <script>window.performance && window.performance.mark && window.performance.mark('shopify.content_for_header.start');</script>
    <meta id="shopify-digital-wallet" name="shopify-digital-wallet" content="/${store.shopId}/digital_wallets/dialog">
    <script async="async" src="/checkouts/internal/preloads.js?locale=en-${store.country.code}"></script>
    <script id="shopify-features" type="application/json">{"accessToken":"${(store.shopId * 7919).toString(16)}","betas":["rich-media-storefront-analytics"],"domain":"${store.host}","predictiveSearch":true,"shopId":${store.shopId},"locale":"en"}</script>
    <script>var Shopify = Shopify || {};
Shopify.shop = "${shop}";
Shopify.locale = "en";
Shopify.currency = {"active":"${store.currency}","rate":"1.0"};
Shopify.country = "${store.country.code}";
Shopify.theme = {"name":"${store.theme.name}","id":${store.theme.id},"schema_name":"${store.theme.name}","schema_version":"${store.theme.version}","theme_store_id":${store.theme.id % 3000},"role":"main"};
Shopify.theme.handle = "null";
Shopify.theme.style = {"id":null,"handle":null};
Shopify.cdnHost = "${store.host}\\/cdn";
Shopify.routes = Shopify.routes || {};
Shopify.routes.root = "\\/";</script>
<script type="module">!function(o){(o.Shopify=o.Shopify||{}).modules=!0}(window);</script>
<script>!function(o){function n(){var o=[];function n(){o.push(Array.prototype.slice.apply(arguments))}return n.q=o,n}var t=o.Shopify=o.Shopify||{};t.loadFeatures=n(),t.autoloadFeatures=n()}(window);</script>
<script id="shop-js-analytics" type="application/json">{"pageType":"index"}</script>
<script>(function() {
  var isLoaded = false;
  function asyncLoad() {
    if (isLoaded) return;
    isLoaded = true;
    var urls = ${shopifyJson(asyncUrls)};
    for (var i = 0; i < urls.length; i++) {
      var s = document.createElement('script');
      s.type = 'text/javascript';
      s.async = true;
      s.src = urls[i];
      var x = document.getElementsByTagName('script')[0];
      x.parentNode.insertBefore(s, x);
    }
  };
  if(window.attachEvent) {
    window.attachEvent('onload', asyncLoad);
  } else {
    window.addEventListener('load', asyncLoad, false);
  }
})();</script>
<script id="web-pixels-manager-setup">(function e(e,d,r,n,o){var config = ${pixelConfig}; window.webPixelsManager && window.webPixelsManager.init(config);})();</script>
<script id="__st">var __st={"a":${store.shopId},"offset":-18000,"reqid":"${store.index.toString(16)}-${store.epoch}","pageurl":"${store.host}\\/","u":"${(store.shopId * 31).toString(16)}","p":"home"};</script>
<script>window.performance && window.performance.mark && window.performance.mark('shopify.content_for_header.end');</script>
${scriptTags.join('\n')}
<link href="//${store.host}/cdn/shop/t/${store.theme.id % 97}/assets/base.css?v=${store.theme.id}" rel="stylesheet" type="text/css" media="all" />
<script type="application/json" id="theme-settings">${settings}</script>
${themeStyles(store)}
  </head>
  <body class="gradient">
    <div id="shopify-section-sections--announcement" class="shopify-section shopify-section-group-header-group announcement-bar-section">${phrases}</div>
    <div id="shopify-section-sections--header" class="shopify-section shopify-section-group-header-group section-header">
      <header class="header header--middle-left"><a href="/" class="header__heading-link"><span class="h2">${escapeHtml(store.name)}</span></a>
      <nav class="header__inline-menu"><ul class="list-menu"><li><a href="/collections/all">Catalog</a></li><li><a href="/pages/contact">Contact</a></li></ul></nav></header>
    </div>
    <main id="MainContent" class="content-for-layout" role="main">
      <div id="shopify-section-template--index__featured_collection" class="shopify-section section">
        <h2 class="title inline-richtext h2">Featured</h2>
        <ul class="grid product-grid grid--4-col-desktop">${cards}</ul>
      </div>
      ${blocks.join('\n')}
    </main>
    <div id="shopify-section-sections--footer" class="shopify-section shopify-section-group-footer-group">
      <footer class="footer"><ul class="list-social">
        <li><a href="https://www.instagram.com/${store.instagram}/" class="link list-social__link">Instagram</a></li>
        <li><a href="https://www.facebook.com/sharer/sharer.php?u=https://${store.host}" class="link">Share</a></li>
      </ul>
      <p>Questions? <a href="mailto:${store.email}">${store.email}</a></p>
      ${friends ? `<ul class="footer-friends">${friends}</ul>` : ''}
      <small class="copyright__content">&copy; 2026, <a href="/" title="">${escapeHtml(store.name)}</a> <a target="_blank" rel="nofollow" href="https://www.shopify.com?utm_campaign=poweredby&amp;utm_medium=shopify&amp;utm_source=onlinestore">Powered by Shopify</a></small>
      </footer>
    </div>
  </body>
</html>
`;
}

export function metaJson(store: FarmStore, productCount: number): string {
  return shopifyJson({
    id: store.shopId,
    name: store.name,
    city: null,
    province: null,
    country: store.country.code,
    currency: store.currency,
    domain: store.host,
    url: `https://${store.host}`,
    myshopify_domain: `${store.myshopifyHandle}.myshopify.com`,
    description: `${store.name}, shipping from ${store.country.name}.`,
    ships_to_countries: [store.country.code, 'US', 'CA'].filter(
      (c, i, all) => all.indexOf(c) === i,
    ),
    money_format: moneyFormat(store.currency),
    published_collections_count: store.hasBestSellers ? 3 : 2,
    published_products_count: productCount,
    shopify_pay_enabled_card_brands: ['visa', 'master', 'american_express'],
    offers_shop_pay_installments: store.currency === 'USD',
  });
}

function productJson(store: FarmStore, p: FarmProduct) {
  return {
    id: p.id,
    title: p.title,
    handle: p.handle,
    body_html: p.description,
    published_at: iso(p.publishedAt),
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    vendor: p.vendor,
    product_type: p.productType,
    tags: p.tags,
    variants: p.variants.map((v, n) => ({
      id: v.id,
      title: v.title,
      option1: v.option1,
      option2: v.option2,
      option3: null,
      sku: v.sku,
      requires_shipping: true,
      taxable: true,
      featured_image: null,
      available: v.available,
      price: decimal(v.price),
      grams: v.grams,
      compare_at_price: v.compareAtPrice === null ? null : decimal(v.compareAtPrice),
      position: n + 1,
      product_id: p.id,
      created_at: iso(p.createdAt),
      updated_at: iso(p.updatedAt),
      ...(store.exposesInventory
        ? {
            inventory_quantity: v.inventoryQuantity,
            old_inventory_quantity: v.inventoryQuantity,
            inventory_management: 'shopify',
          }
        : {}),
    })),
    images: p.images.map((image, n) => ({
      id: image.id,
      created_at: iso(p.createdAt),
      position: n + 1,
      updated_at: iso(p.updatedAt),
      product_id: p.id,
      variant_ids: [],
      src: image.src,
      width: image.width,
      height: image.height,
    })),
    options: p.options.map((o, n) => ({ name: o.name, position: n + 1, values: o.values })),
  };
}

export function productsJson(store: FarmStore, products: readonly FarmProduct[]): string {
  return shopifyJson({ products: products.map((p) => productJson(store, p)) });
}

/** /products/<handle>.js: the theme's product object, prices in cents. */
export function productJs(store: FarmStore, p: FarmProduct): string {
  const prices = p.variants.map((v) => cents(v.price));
  const compares = p.variants.map((v) => (v.compareAtPrice === null ? 0 : cents(v.compareAtPrice)));
  return JSON.stringify({
    id: p.id,
    title: p.title,
    handle: p.handle,
    description: p.description,
    published_at: iso(p.publishedAt),
    created_at: iso(p.createdAt),
    vendor: p.vendor,
    type: p.productType,
    tags: p.tags,
    price: Math.min(...prices),
    price_min: Math.min(...prices),
    price_max: Math.max(...prices),
    available: p.variants.some((v) => v.available),
    price_varies: new Set(prices).size > 1,
    compare_at_price: Math.min(...compares) || null,
    compare_at_price_min: Math.min(...compares),
    compare_at_price_max: Math.max(...compares),
    compare_at_price_varies: new Set(compares).size > 1,
    variants: p.variants.map((v) => ({
      id: v.id,
      title: v.title,
      option1: v.option1,
      option2: v.option2,
      option3: null,
      sku: v.sku,
      requires_shipping: true,
      taxable: true,
      featured_image: null,
      available: v.available,
      name: v.title === 'Default Title' ? p.title : `${p.title} - ${v.title}`,
      public_title: v.title === 'Default Title' ? null : v.title,
      options: [v.option1, v.option2].filter(Boolean),
      price: cents(v.price),
      weight: v.grams,
      compare_at_price: v.compareAtPrice === null ? null : cents(v.compareAtPrice),
      inventory_management: store.exposesInventory ? 'shopify' : null,
      barcode: null,
      requires_selling_plan: false,
      selling_plan_allocations: [],
      ...(store.exposesInventory ? { inventory_quantity: v.inventoryQuantity } : {}),
    })),
    images: p.images.map((i) => i.src.replace('https:', '')),
    featured_image: p.images[0]!.src.replace('https:', ''),
    options: p.options.map((o) => o.name),
    url: `/products/${p.handle}`,
  });
}

export function robotsTxt(store: FarmStore): string {
  if (store.behaviour === 'disallowed') return 'User-agent: *\nDisallow: /\n';
  return `# we use Shopify as our ecommerce platform

User-agent: *
Disallow: /a/downloads/-/*
Disallow: /admin
Disallow: /cart
Disallow: /orders
Disallow: /checkouts/
Disallow: /checkout
Disallow: /${store.shopId}/checkouts
Disallow: /${store.shopId}/orders
Disallow: /carts
Disallow: /account
Disallow: /collections/*sort_by*
Disallow: /*/collections/*sort_by*
Disallow: /collections/*+*
Disallow: /collections/*%2B*
Disallow: /collections/*%2b*
Disallow: /blogs/*+*
Disallow: /*?*oseid=*
Disallow: /*preview_theme_id*
Disallow: /*preview_script_id*
Disallow: /policies/
Disallow: /search
Disallow: /apple-app-site-association
Disallow: /.well-known/shopify/monorail
Disallow: /cdn/wpm/*.js
Disallow: /recommendations/products
Sitemap: https://${store.host}/sitemap.xml

# Google adsbot ignores robots.txt unless specifically named!
User-agent: adsbot-google
Disallow: /checkouts/
Disallow: /checkout
Disallow: /carts
Disallow: /orders

User-agent: Nutch
Disallow: /

User-agent: MJ12bot
Crawl-Delay: 10
`;
}

/** What a closed Shopify store shows at every path (with HTTP 404). */
export function unavailablePage(store: FarmStore): string {
  return `<!doctype html><html><head><title>${escapeHtml(store.name)} &ndash; Store unavailable</title></head>
<body><div class="page"><h1>Sorry, this store is currently unavailable.</h1><p>Are you the store owner? <a href="https://www.shopify.com/login">Log in here</a></p></div></body></html>`;
}

export function plainWebsite(store: FarmStore): string {
  return `<!doctype html><html><head><title>${escapeHtml(store.name)} blog</title></head><body><h1>${escapeHtml(store.name)}</h1><p>Notes and photographs. Nothing for sale here.</p></body></html>`;
}
