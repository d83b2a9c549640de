// Reads a storefront's public surface, in the two phases a scrape request shows: validating (the
// homepage answers and is a Shopify storefront) and scraping (meta.json, every products.json page,
// the best-selling order). Only the egress client touches the network.
import { setTimeout as sleep } from 'node:timers/promises';
import { EgressError } from '../../platform/egress/egress-error.ts';
import { sameStorefront } from '../../stores/domain.ts';
import type { Egress, EgressResponse } from '../../platform/egress/egress.ts';
import type { LegacySocials } from '../../legacy/port.ts';
import { detectApps, type AppFingerprint } from './app-fingerprints.ts';
import { readHomepage, type HomepageFacts } from './homepage.ts';
import { ScrapeFailure } from './scrape-failure.ts';
import { ProductsPage, productsOf, StorefrontMeta, type StorefrontProduct } from './storefront-json.ts';

/** products.json page size (Shopify's maximum) */
export const PRODUCTS_PAGE_SIZE = 250;
/** how many products of the best-selling order are best sellers */
export const BEST_SELLER_LIMIT = 20;
/** when only the whole catalog sorted by sales exists: this share of it, at most BEST_SELLER_LIMIT */
export const BEST_SELLER_SHARE = 0.2;

export interface StorefrontReader {
  egress: Egress;
  apps: readonly AppFingerprint[];
  dropshipVocabulary: readonly string[];
  maxProductPages: number;
}

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
}

const storefrontUrl = (domain: string, path: string) => new URL(path, `https://${domain}`);

/** Rate limits (429, or 503 with Retry-After) are waited out within the job up to these bounds. */
export const RATE_LIMIT_RETRIES = 3;
export const RATE_LIMIT_MAX_WAIT_S = 30;

/** Seconds a Retry-After header asks for (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim());
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

async function get(reader: StorefrontReader, domain: string, path: string): Promise<EgressResponse> {
  const accept = path.endsWith('.json') || path.includes('.json?') ? 'application/json' : 'text/html';
  for (let attempt = 0; ; attempt++) {
    let response: EgressResponse;
    try {
      response = await reader.egress.fetch(storefrontUrl(domain, path), { maxRedirects: 5, followsTo: sameStorefront, headers: { accept } });
    } catch (error) {
      if (error instanceof EgressError && error.failure === 'moved') {
        const to = error.location!.host;
        throw new ScrapeFailure(`${domain} moved: ${path.split("?")[0]} redirects to ${to}, another host; nothing of ${to} is saved under ${domain} (request a scrape of ${to})`);
      }
      if (error instanceof EgressError) throw new ScrapeFailure(error.message);
      throw error;
    }
    const limited = response.status === 429 || (response.status === 503 && response.headers['retry-after'] !== undefined);
    if (!limited) return response;
    const wait = retryAfterSeconds(response.headers['retry-after']) ?? 1;
    if (attempt >= RATE_LIMIT_RETRIES || wait > RATE_LIMIT_MAX_WAIT_S) {
      throw new ScrapeFailure(
        `${domain} rate-limited ${path.split('?')[0]} (HTTP ${response.status}, Retry-After ${response.headers['retry-after'] ?? 'absent'}) ` +
          `after ${attempt + 1} attempts; the scrape waits at most ${RATE_LIMIT_MAX_WAIT_S} s at a time, ${RATE_LIMIT_RETRIES} times`,
      );
    }
    await sleep(wait * 1000);
  }
}

function json(response: EgressResponse, what: string): unknown {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new ScrapeFailure(`${what} is not JSON`);
  }
}

export async function validateStorefront(reader: StorefrontReader, domain: string): Promise<ValidatedStorefront> {
  const response = await get(reader, domain, '/');
  if (response.status !== 200) throw new ScrapeFailure(`the homepage of ${domain} answered HTTP ${response.status}`);
  const html = response.body.toString('utf8');
  const homepage = readHomepage(html, reader.dropshipVocabulary);
  if (!homepage.isShopify) throw new ScrapeFailure(`${domain} is not a Shopify storefront (no Shopify markers on its homepage)`);
  return { domain, homepageHtml: html, homepage };
}

export async function observeStorefront(reader: StorefrontReader, storefront: ValidatedStorefront): Promise<StorefrontObservation> {
  const { domain, homepage } = storefront;
  const metaResponse = await get(reader, domain, '/meta.json');
  const meta = metaResponse.status === 200 ? StorefrontMeta.safeParse(json(metaResponse, '/meta.json')).data : undefined;

  const products = await readAllProducts(reader, domain);
  const ranks = await bestSellerRanks(reader, domain, products.length);

  return {
    domain,
    name: meta?.name?.trim() || homepage.title || domain,
    description: meta?.description?.trim() || null,
    themeName: homepage.themeName,
    currency: homepage.currency ?? (meta?.currency && /^[A-Z]{3}$/.test(meta.currency) ? meta.currency : null),
    countryCode: homepage.countryCode ?? (meta?.country && /^[A-Z]{2}$/.test(meta.country) ? meta.country : null),
    socials: homepage.socials,
    emails: homepage.emails,
    dropshipSignals: homepage.dropshipPhrases.length,
    apps: detectApps(storefront.homepageHtml, reader.apps),
    products: products.map((p) => toObserved(p, ranks.get(p.handle) ?? null)),
  };
}

async function readAllProducts(reader: StorefrontReader, domain: string): Promise<StorefrontProduct[]> {
  const byHandle = new Map<string, StorefrontProduct>();
  for (let page = 1; page <= reader.maxProductPages; page++) {
    const response = await get(reader, domain, `/products.json?limit=${PRODUCTS_PAGE_SIZE}&page=${page}`);
    if (response.status !== 200) {
      if (page === 1) throw new ScrapeFailure(`/products.json of ${domain} answered HTTP ${response.status}`);
      break;
    }
    const parsed = ProductsPage.safeParse(json(response, '/products.json'));
    if (!parsed.success) throw new ScrapeFailure(`/products.json of ${domain} is not a product list`);
    for (const product of productsOf(parsed.data)) byHandle.set(product.handle, product);
    if (parsed.data.products.length < PRODUCTS_PAGE_SIZE) break;
  }
  return [...byHandle.values()];
}

/** handle -> rank from the store's best-sellers collection, else from its catalog sorted by sales. */
async function bestSellerRanks(reader: StorefrontReader, domain: string, productCount: number): Promise<Map<string, number>> {
  let handles = await collectionOrder(reader, domain, `/collections/best-sellers/products.json?limit=${BEST_SELLER_LIMIT}`);
  if (handles === null) {
    const sorted = await collectionOrder(reader, domain, `/collections/all/products.json?sort_by=best-selling&limit=${BEST_SELLER_LIMIT}`);
    const share = Math.max(1, Math.min(BEST_SELLER_LIMIT, Math.ceil(productCount * BEST_SELLER_SHARE)));
    handles = sorted?.slice(0, share) ?? [];
  }
  return new Map(handles.slice(0, BEST_SELLER_LIMIT).map((handle, index) => [handle, index + 1]));
}

async function collectionOrder(reader: StorefrontReader, domain: string, path: string): Promise<string[] | null> {
  const response = await get(reader, domain, path);
  if (response.status !== 200) return null;
  const parsed = ProductsPage.safeParse(json(response, path.split('?')[0]!));
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
    compareAtPrice: cheapest.compare_at_price !== null && Number.isFinite(cheapest.compare_at_price) ? cheapest.compare_at_price : null,
    available: product.variants.some((v) => v.available !== false),
    variantCount: Math.min(product.variants.length, 32_767),
    imageUrl: product.images?.[0]?.src ?? null,
    publishedAt: publishedAt && !Number.isNaN(publishedAt.getTime()) ? publishedAt : null,
    bestSellerRank,
  };
}
