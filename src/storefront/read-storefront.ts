// Reads a storefront's public surface in two phases (a scrape request shows both): validating (the
// homepage answers and is a Shopify storefront) and observing (meta.json, every products.json
// page, the best-selling order). Scrapes, the re-observation scheduler and Signals' refresh of a
// watched store all read through here; every request goes through storefront-client.ts.
import type pg from 'pg';
import type { LegacySocials } from '../platform/legacy/port.ts';
import { detectApps, loadAppFingerprints, type AppFingerprint } from './app-fingerprints.ts';
import { readHomepage, type HomepageFacts } from './homepage.ts';
import { linkedDomains } from './linked-domains.ts';
import {
  answerFailure,
  getStorefrontPath,
  jsonOf,
  passwordProtected,
  textOf,
  type StorefrontClient,
} from './storefront-client.ts';
import { StorefrontFailure } from './storefront-failure.ts';
import {
  ProductsPage,
  productsOf,
  StorefrontMeta,
  type StorefrontProduct,
} from './storefront-json.ts';

/** products.json page size (Shopify's maximum) */
export const PRODUCTS_PAGE_SIZE = 250;
/** how many products of the best-selling order are best sellers */
export const BEST_SELLER_LIMIT = 20;
/** when only the whole catalog sorted by sales exists: this share of it, at most BEST_SELLER_LIMIT */
export const BEST_SELLER_SHARE = 0.2;
/** products.json pages read at most (5,000 products) */
export const MAX_PRODUCT_PAGES = 20;

export interface StorefrontReader {
  client: StorefrontClient;
  apps: readonly AppFingerprint[];
  dropshipVocabulary: readonly string[];
  maxProductPages: number;
}

/** A reader with the catalog's current app fingerprints; `dropshipVocabulary` feeds the store models. */
export async function createStorefrontReader(
  client: StorefrontClient,
  pool: Pick<pg.Pool, 'query'>,
  dropshipVocabulary: readonly string[],
): Promise<StorefrontReader> {
  return {
    client,
    apps: await loadAppFingerprints(pool),
    dropshipVocabulary,
    maxProductPages: MAX_PRODUCT_PAGES,
  };
}

/** the markers of Shopify's password page: its template's body class, or its form posting to /password */
const PASSWORD_PAGE = /<body[^>]*\btemplate-password\b|<form[^>]*action=["']\/password["']/i;

export interface ValidatedStorefront {
  domain: string;
  homepageHtml: string;
  homepage: HomepageFacts;
}

export interface ObservedProduct {
  handle: string;
  title: string;
  vendor: string | null;
  productType: string | null;
  /** the lowest variant price, in the store's currency */
  price: number;
  compareAtPrice: number | null;
  available: boolean;
  variantCount: number;
  imageUrl: string | null;
  publishedAt: Date | null;
  /** 1 = best; null when not among the best sellers */
  bestSellerRank: number | null;
}

export interface StorefrontObservation {
  domain: string;
  name: string;
  description: string | null;
  themeName: string | null;
  currency: string | null;
  countryCode: string | null;
  socials: Required<LegacySocials>;
  emails: string[];
  dropshipSignals: number;
  apps: AppFingerprint[];
  products: ObservedProduct[];
  /** <handle>.myshopify.com when the homepage names it */
  myshopifyDomain: string | null;
  /** other sites the homepage links to that could be storefronts (discovery candidates) */
  linkedDomains: string[];
}

export async function validateStorefront(
  reader: StorefrontReader,
  domain: string,
): Promise<ValidatedStorefront> {
  const response = await getStorefrontPath(reader.client, domain, '/');
  if (response.status !== 200) {
    throw answerFailure(response, `the homepage of ${domain} answered HTTP ${response.status}`);
  }
  const html = textOf(response);
  // Shopify's password page, served at / itself by some themes
  if (PASSWORD_PAGE.test(html))
    throw new StorefrontFailure('password_protected', passwordProtected(domain, '/'));
  const homepage = readHomepage(html, reader.dropshipVocabulary);
  if (!homepage.isShopify) {
    throw new StorefrontFailure(
      'not_shopify',
      `${domain} is not a Shopify storefront (no Shopify markers on its homepage)`,
    );
  }
  return { domain, homepageHtml: html, homepage };
}

export async function observeStorefront(
  reader: StorefrontReader,
  storefront: ValidatedStorefront,
): Promise<StorefrontObservation> {
  const { domain, homepage } = storefront;
  const metaResponse = await optionalPath(reader, domain, '/meta.json');
  const meta =
    metaResponse?.status === 200
      ? StorefrontMeta.safeParse(jsonOf(metaResponse, '/meta.json')).data
      : undefined;

  const products = await readAllProducts(reader, domain);
  const ranks = await bestSellerRanks(reader, domain, products.length);

  return {
    domain,
    name: meta?.name?.trim() || homepage.title || domain,
    description: meta?.description?.trim() || null,
    themeName: homepage.themeName,
    currency:
      homepage.currency ??
      (meta?.currency && /^[A-Z]{3}$/.test(meta.currency) ? meta.currency : null),
    countryCode:
      homepage.countryCode ??
      (meta?.country && /^[A-Z]{2}$/.test(meta.country) ? meta.country : null),
    socials: homepage.socials,
    emails: homepage.emails,
    dropshipSignals: homepage.dropshipPhrases.length,
    apps: detectApps(storefront.homepageHtml, reader.apps),
    products: products.map((p) => toObserved(p, ranks.get(p.handle) ?? null)),
    myshopifyDomain: homepage.myshopifyDomain,
    linkedDomains: linkedDomains(storefront.homepageHtml, domain),
  };
}

async function readAllProducts(
  reader: StorefrontReader,
  domain: string,
): Promise<StorefrontProduct[]> {
  const byHandle = new Map<string, StorefrontProduct>();
  for (let page = 1; page <= reader.maxProductPages; page++) {
    const response = await getStorefrontPath(
      reader.client,
      domain,
      `/products.json?limit=${PRODUCTS_PAGE_SIZE}&page=${page}`,
    );
    if (response.status !== 200) {
      if (page === 1)
        throw answerFailure(
          response,
          `/products.json of ${domain} answered HTTP ${response.status}`,
        );
      break;
    }
    const parsed = ProductsPage.safeParse(jsonOf(response, '/products.json'));
    if (!parsed.success)
      throw new StorefrontFailure('malformed', `/products.json of ${domain} is not a product list`);
    for (const product of productsOf(parsed.data)) byHandle.set(product.handle, product);
    if (parsed.data.products.length < PRODUCTS_PAGE_SIZE) break;
  }
  return [...byHandle.values()];
}

/** handle -> rank from the store's best-sellers collection, else from its catalog sorted by sales. */
async function bestSellerRanks(
  reader: StorefrontReader,
  domain: string,
  productCount: number,
): Promise<Map<string, number>> {
  let handles = await collectionOrder(
    reader,
    domain,
    `/collections/best-sellers/products.json?limit=${BEST_SELLER_LIMIT}`,
  );
  if (handles === null) {
    const sorted = await collectionOrder(
      reader,
      domain,
      `/collections/all/products.json?sort_by=best-selling&limit=${BEST_SELLER_LIMIT}`,
    );
    const share = Math.max(
      1,
      Math.min(BEST_SELLER_LIMIT, Math.ceil(productCount * BEST_SELLER_SHARE)),
    );
    handles = sorted?.slice(0, share) ?? [];
  }
  return new Map(handles.slice(0, BEST_SELLER_LIMIT).map((handle, index) => [handle, index + 1]));
}

/** A path the observation can do without: null when robots.txt disallows it (Shopify's own disallows sort_by). */
async function optionalPath(reader: StorefrontReader, domain: string, path: string) {
  try {
    return await getStorefrontPath(reader.client, domain, path);
  } catch (error) {
    if (error instanceof StorefrontFailure && error.kind === 'robots') return null;
    throw error;
  }
}

async function collectionOrder(
  reader: StorefrontReader,
  domain: string,
  path: string,
): Promise<string[] | null> {
  const response = await optionalPath(reader, domain, path);
  if (response?.status !== 200) return null;
  const parsed = ProductsPage.safeParse(jsonOf(response, path.split('?')[0]!));
  if (!parsed.success) return null;
  const handles = productsOf(parsed.data).map((p) => p.handle);
  return handles.length > 0 ? handles : null;
}

function toObserved(product: StorefrontProduct, bestSellerRank: number | null): ObservedProduct {
  const cheapest = product.variants.reduce((a, b) => (b.price < a.price ? b : a));
  const publishedAt = product.published_at ? new Date(product.published_at) : null;
  return {
    handle: product.handle,
    title: product.title,
    vendor: product.vendor ?? null,
    productType: product.product_type || null,
    price: Math.round(cheapest.price * 100) / 100,
    compareAtPrice:
      cheapest.compare_at_price !== null && Number.isFinite(cheapest.compare_at_price)
        ? cheapest.compare_at_price
        : null,
    available: product.variants.some((v) => v.available !== false),
    variantCount: Math.min(product.variants.length, 32_767),
    imageUrl: product.images?.[0]?.src ?? null,
    publishedAt: publishedAt && !Number.isNaN(publishedAt.getTime()) ? publishedAt : null,
    bestSellerRank,
  };
}
