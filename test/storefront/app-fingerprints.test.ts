// App detection against the markup apps really put on storefronts: script tags, Shopify's
// asyncLoad list (URLs JSON-escaped as served: "https:\/\/shopify.privy.com\/widget.js"), app-embed
// blocks under cdn.shopify.com/extensions and \u002F-escaped JSON. Each snippet must be found as
// its app and as no other; a plain theme homepage must show no app at all.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  compileFingerprint,
  detectApps,
  unescapedScriptText,
} from '../../src/storefront/app-fingerprints.ts';

const catalog = JSON.parse(
  readFileSync(new URL('../../data/apps.json', import.meta.url), 'utf8'),
) as {
  apps: Array<{ slug: string; name: string; category: string; detectionPatterns: string[] }>;
};
const apps = catalog.apps.map((app, id) =>
  compileFingerprint({
    id,
    slug: app.slug,
    name: app.name,
    category: app.category,
    detection_patterns: app.detectionPatterns,
  }),
);
const slugsIn = (html: string) =>
  detectApps(html, apps)
    .map((app) => app.slug)
    .sort();

/** asyncLoad, as Shopify renders the script tags of installed apps into every storefront */
const asyncLoad = (...urls: string[]) =>
  `<script>(function() { function asyncLoad() { var urls = ${JSON.stringify(urls).replace(/\//g, '\\/')}; ` +
  "for (var i = 0; i < urls.length; i++) { var s = document.createElement('script'); s.src = urls[i]; } } })();</script>";

const LOADERS: Record<string, string> = {
  privy: asyncLoad('https://shopify.privy.com/widget.js?shop=example.myshopify.com'),
  'klaviyo-email-marketing': asyncLoad(
    'https://static.klaviyo.com/onsite/js/klaviyo.js?company_id=AbC123',
  ),
  judgeme: '<script src="https://cdnwidget.judge.me/widget_preloader.js" defer></script>',
  loox: asyncLoad('https://loox.io/widget/EJ-loox/loox.1671.js?shop=example.myshopify.com'),
  'yotpo-social-reviews': asyncLoad(
    'https://cdn-widgetsrepository.yotpo.com/v1/loader/AbCdEf?shop=example.myshopify.com',
  ),
  'product-reviews-addon': asyncLoad(
    'https://cdn1.stamped.io/files/widget.min.js?shop=example.myshopify.com',
  ),
  'tidio-chat': '<script src="//code.tidio.co/abcdefghijklmnop.js" async></script>',
  gorgias: asyncLoad(
    'https://config.gorgias.chat/bundle-loader/01GYABCDEF?source=shopify1click&shop=example.myshopify.com',
  ),
  'subscription-payments': asyncLoad(
    'https://static.rechargecdn.com/assets/js/widget.min.js?shop=example.myshopify.com',
  ),
  'smile-io': asyncLoad('https://js.smile.io/v1/smile-shopify.js?shop=example.myshopify.com'),
  attentive: asyncLoad('https://cdn.attn.tv/example/dtag.js?shop=example.myshopify.com'),
  'postscript-sms-marketing': asyncLoad(
    'https://sdk.postscript.io/sdk-script-loader.bundle.js?shopId=123&shop=example.myshopify.com',
  ),
  omnisend: asyncLoad('https://omnisnippet1.com/inshop/launcher-v2.js?shop=example.myshopify.com'),
  hotjar:
    '<script>(function(h,o,t,j,a,r){a=o.getElementsByTagName("head")[0];r.src="https://static.hotjar.com/c/hotjar-"+h._hjSettings.hjid+".js?sv=6";})(window,document);</script>',
  facebook:
    '<script>!function(f,b,e,v,n,t,s){t.src=v}(window, document,"script","https://connect.facebook.net/en_US/fbevents.js");</script>',
  tiktok:
    "<script>!function (w, d, t) { ttq.load('C1ABCDEFG'); ttq.page(); }(window, document, 'ttq');</script>",
  weglot: '<script src="https://cdn.weglot.com/weglot.min.js"></script>',
  // Shopify Inbox's app embed, in the \u002F-escaped JSON of the theme's app blocks
  // loaders as stores serve them today, on numbered CDN hosts and legacy hosts
  searchanise:
    '<script src="//searchserverapi1.com/widgets/shopify/init.js?a=1A2b3C4d5E" async></script>',
  'product-reviews': asyncLoad(
    'https://productreviews.shopifycdn.com/assets/v4/spr.js?shop=example.myshopify.com',
  ),
  inbox:
    '<script type="application/json">{"src":"https:\\u002F\\u002Fcdn.shopify.com\\u002Fextensions\\u002F0a1b2c3d-4e5f-6789-abcd-ef0123456789\\u002Finbox-1203\\u002Fassets\\u002Fshopifychatscript.js"}</script>',
};

/** A theme homepage without apps, in the shape of Shopify's Dawn theme. */
const PLAIN_THEME = `<!doctype html><html class="no-js" lang="en"><head>
<link rel="stylesheet" href="//example.com/cdn/shop/t/1/assets/base.css?v=1">
<script>window.Shopify = window.Shopify || {}; Shopify.shop = "example.myshopify.com"; Shopify.theme = {"name":"Dawn","id":1};</script>
<script src="//example.com/cdn/shop/t/1/assets/global.js?v=1" defer="defer"></script></head>
<body class="gradient"><a class="skip-to-content-link button visually-hidden" href="#MainContent">Skip to content</a>
<div class="announcement-bar" role="region"><p class="announcement-bar__message h5">Free shipping over $50</p></div>
<header class="header header--middle-left page-width header--has-menu"><details-modal class="header__search">
<summary class="header__icon header__icon--search focus-inset modal__toggle" aria-haspopup="dialog"></summary></details-modal>
<nav class="header__inline-menu"><ul class="list-menu list-menu--inline" role="list"><li><a href="/collections/all" class="header__menu-item list-menu__item link link--text focus-inset">Shop</a></li></ul></nav></header>
<main id="MainContent" class="content-for-layout focus-none" role="main"><section id="shopify-section-template--1__image_banner" class="shopify-section section">
<div class="banner__box content-container content-container--full-width-mobile color-background-1 gradient"><h2 class="banner__heading inline-richtext h0">Spring collection</h2>
<div class="banner__buttons"><a href="/collections/all" class="button button--primary">Shop all</a></div></div></section>
<product-recommendations class="related-products page-width" data-url="/recommendations/products?limit=4"></product-recommendations></main>
<footer class="footer color-background-1 gradient section-sections--1__footer-padding"><div class="footer__content-bottom"><ul class="list list-payment" role="list">
<li class="list-payment__item"><svg class="icon icon--full-color" viewBox="0 0 38 24" aria-labelledby="pi-visa"><title id="pi-visa">Visa</title></svg></li></ul>
<small class="copyright__content">&copy; 2026, <a href="/" title="">Example</a> Powered by Shopify</small></div></footer>
<ul hidden><li id="a11y-refresh-page-message">Choosing a selection results in a full page refresh.</li></ul></body></html>`;

describe('app detection on real loader markup', () => {
  for (const [slug, markup] of Object.entries(LOADERS)) {
    it(`finds ${slug} as served, and no other app`, () => {
      expect(
        apps.some((app) => app.slug === slug),
        `${slug} is in data/apps.json`,
      ).toBe(true);
      expect(slugsIn(`${PLAIN_THEME}${markup}`)).toEqual([slug]);
    });
  }

  it('finds an app whose loader URL is JSON-escaped only in the unescaped text', () => {
    const escaped = asyncLoad('https://shopify.privy.com/widget.js');
    expect(escaped).toContain('shopify.privy.com\\/widget.js');
    expect(unescapedScriptText(escaped)).toContain('https://shopify.privy.com/widget.js');
  });

  // the same app on each host of its CDN family, in a script tag and JSON-escaped in asyncLoad
  const FAMILIES: Array<[string, string[]]> = [
    [
      'judgeme',
      [
        'https://cdn1.judge.me/assets/installed.js',
        'https://cdn2.judge.me/assets/installed.js',
        'https://cdn.judge.me/assets/installed.js',
      ],
    ],
    [
      'searchanise',
      [
        '//searchserverapi1.com/widgets/shopify/init.js?a=1A2b3C',
        'https://searchserverapi3.com/widgets/shopify/init.js?a=1A2b3C',
        'https://searchserverapi.com/widgets/shopify/init.js',
      ],
    ],
    [
      'subscription-payments',
      [
        'https://rechargeassets-bootstrapheroes-rechargeapps.netdna-ssl.com/static/js/recharge.js',
        'https://static.rechargecdn.com/static/js/recharge.js?shop=example.myshopify.com',
      ],
    ],
    [
      'product-reviews',
      ['https://productreviews.shopifycdn.com/assets/v4/spr.js?shop=example.myshopify.com'],
    ],
    ['product-reviews-addon', ['https://cdn2.stamped.io/files/widget.min.js']],
    [
      'yotpo-social-reviews',
      [
        'https://staticw2.yotpo.com/AbCdEf/widget.js',
        'https://staticw3.yotpo.com/AbCdEf/widget.js',
      ],
    ],
    [
      'omnisend',
      [
        'https://omnisnippet1.com/inshop/launcher-v2.js',
        'https://omnisnippet2.com/inshop/launcher-v2.js',
      ],
    ],
  ];
  for (const [slug, urls] of FAMILIES) {
    for (const url of urls) {
      it(`finds ${slug} loaded from ${url}`, () => {
        const src = url.startsWith('//') ? url : url.replace(/^https?:/, '');
        expect(slugsIn(`${PLAIN_THEME}<script src="${src}" defer="defer"></script>`)).toEqual([
          slug,
        ]);
        expect(slugsIn(`${PLAIN_THEME}<script src="${url}"></script>`)).toEqual([slug]);
        expect(
          slugsIn(`${PLAIN_THEME}${asyncLoad(url.startsWith('//') ? `https:${url}` : url)}`),
        ).toEqual([slug]);
      });
    }
  }

  it('finds Shopify Product Reviews by the markup its badge and widget leave, without its script', () => {
    const markup =
      '<span class="shopify-product-reviews-badge" data-id="7000000000001"></span>' +
      '<div id="shopify-product-reviews" data-id="7000000000001"><div class="spr-container"></div></div>';
    expect(slugsIn(`${PLAIN_THEME}${markup}`)).toEqual(['product-reviews']);
  });

  it('does not take ordinary words and class names for an app', () => {
    const words =
      '<p>Otherwise, the wiser choice: we replotted the garden. A swell-looking vase.</p>';
    expect(slugsIn(`${PLAIN_THEME}${words}`)).toEqual([]);
  });

  it('finds no app on a plain theme homepage', () => {
    expect(slugsIn(PLAIN_THEME)).toEqual([]);
  });
});
