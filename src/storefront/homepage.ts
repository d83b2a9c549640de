// What a storefront's homepage HTML says about the store: whether it is a Shopify storefront at
// all, its theme, currency and country (Shopify's own globals), its social profiles, contact
// emails and the dropshipping phrases it shows. Regular expressions over the HTML: the storefront
// globals are machine-written and stable, and no script is ever run.
import type { LegacySocials } from '../platform/legacy/port.ts';
import { SOCIAL_NETWORKS } from '../platform/legacy/summary.ts';
import { clip, parseStorefrontJson } from './storefront-text.ts';

export interface HomepageFacts {
  isShopify: boolean;
  title: string | null;
  themeName: string | null;
  currency: string | null;
  countryCode: string | null;
  socials: Required<LegacySocials>;
  emails: string[];
  /** distinct dropshipping phrases found in the page (data/vocabulary.json dropshipPhrases) */
  dropshipPhrases: string[];
  /** the store's own <handle>.myshopify.com (Shopify.shop), which stays the same when its domain changes */
  myshopifyDomain: string | null;
}

/** Markers only a Shopify storefront carries: its globals, its CDN, its section markup. */
const SHOPIFY_MARKERS = [
  /\bShopify\.theme\b/,
  /\bShopify\.shop\s*=/,
  /cdn\.shopify\.com\//,
  /\bshopify-section\b/,
  /\/cdn\/shop\//,
];

const SOCIAL_LINKS: Record<(typeof SOCIAL_NETWORKS)[number], RegExp> = {
  instagram: /https?:\/\/(?:www\.)?instagram\.com\/([A-Za-z0-9_.]{1,30})\/?(?=["'?#\s])/,
  facebook: /https?:\/\/(?:www\.|m\.)?facebook\.com\/([A-Za-z0-9.-]{1,80})\/?(?=["'?#\s])/,
  tiktok: /https?:\/\/(?:www\.)?tiktok\.com\/@([A-Za-z0-9_.]{1,40})\/?(?=["'?#\s])/,
  twitter: /https?:\/\/(?:www\.)?(?:twitter|x)\.com\/([A-Za-z0-9_]{1,15})\/?(?=["'?#\s])/,
  youtube:
    /https?:\/\/(?:www\.)?youtube\.com\/((?:@|c\/|channel\/|user\/)[A-Za-z0-9_-]{1,80})\/?(?=["'?#\s])/,
  pinterest: /https?:\/\/(?:www\.)?pinterest\.[a-z.]{2,6}\/([A-Za-z0-9_]{1,40})\/?(?=["'?#\s])/,
};
const SOCIAL_URL_PREFIX: Record<(typeof SOCIAL_NETWORKS)[number], string> = {
  instagram: 'https://instagram.com/',
  facebook: 'https://facebook.com/',
  tiktok: 'https://tiktok.com/@',
  twitter: 'https://x.com/',
  youtube: 'https://youtube.com/',
  pinterest: 'https://pinterest.com/',
};
/** share buttons and the platform's own pages are not the store's profiles */
const NOT_A_PROFILE = /^(sharer|share|intent|home|shopify|pin|watch|p|reel|tr|plugins|dialog)$/i;

/**
 * Addresses as /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}/g finds them, found from
 * each "@" instead: that expression, scanned over a whole page, tries its 64-character local part at
 * every position. Same matches, in
 * the same order (a match starts where the expression's leftmost scan would start it: at most 64
 * characters before its "@", never inside the previous match).
 */
export function emailsIn(html: string): string[] {
  const found: string[] = [];
  let previousEnd = 0;
  for (let at = html.indexOf('@'); at >= 0; at = html.indexOf('@', at + 1)) {
    if (at < previousEnd) continue;
    let start = at;
    while (start > previousEnd && at - start < 64 && isLocalChar(html.charCodeAt(start - 1)))
      start--;
    if (start === at) continue;
    EMAIL_DOMAIN.lastIndex = at + 1;
    if (!EMAIL_DOMAIN.test(html)) continue;
    found.push(html.slice(start, EMAIL_DOMAIN.lastIndex));
    previousEnd = EMAIL_DOMAIN.lastIndex;
  }
  return found;
}
const EMAIL_DOMAIN = /[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}/y;
const isLocalChar = (c: number) =>
  (c >= 97 && c <= 122) ||
  (c >= 65 && c <= 90) ||
  (c >= 48 && c <= 57) ||
  c === 46 ||
  c === 95 ||
  c === 37 ||
  c === 43 ||
  c === 45;
/** asset names such as logo@2x.png look like addresses */
const NOT_AN_EMAIL = /\.(png|jpe?g|gif|webp|svg|avif|css|js)$/i;

function firstJson(html: string, pattern: RegExp): Record<string, unknown> | null {
  const match = pattern.exec(html);
  if (!match?.[1]) return null;
  try {
    const value = parseStorefrontJson(match[1]);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const decodeEntities = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

export function readHomepage(html: string, dropshipVocabulary: readonly string[]): HomepageFacts {
  const theme = firstJson(html, /Shopify\.theme\s*=\s*(\{[^;]*?\})\s*;/);
  const currency = firstJson(html, /Shopify\.currency\s*=\s*(\{[^;]*?\})\s*;/);
  const country = /Shopify\.country\s*=\s*"([A-Z]{2})"/.exec(html)?.[1] ?? null;
  const title = /<title[^>]*>([^<]{1,300})<\/title>/i.exec(html)?.[1]?.trim() ?? null;
  const myshopifyDomain =
    /Shopify\.shop\s*=\s*"([a-z0-9][a-z0-9-]{0,62}\.myshopify\.com)"/i
      .exec(html)?.[1]
      ?.toLowerCase() ?? null;

  const socials = Object.fromEntries(
    SOCIAL_NETWORKS.map((network) => {
      const handle = SOCIAL_LINKS[network].exec(html)?.[1];
      return [
        network,
        handle && !NOT_A_PROFILE.test(handle) ? SOCIAL_URL_PREFIX[network] + handle : null,
      ];
    }),
  ) as Required<LegacySocials>;

  const emails = [...new Set(emailsIn(html).map((email) => email.toLowerCase()))]
    .filter((email) => !NOT_AN_EMAIL.test(email))
    .slice(0, 10);

  const text = decodeEntities(html).toLowerCase();
  const dropshipPhrases = dropshipVocabulary.filter((phrase) =>
    text.includes(phrase.toLowerCase()),
  );
  const activeCurrency =
    typeof currency?.active === 'string' && /^[A-Z]{3}$/.test(currency.active)
      ? currency.active
      : null;

  return {
    isShopify: SHOPIFY_MARKERS.some((marker) => marker.test(html)),
    title: title ? decodeEntities(title) : null,
    themeName: typeof theme?.name === 'string' ? clip(theme.name, 100) : null,
    currency: activeCurrency,
    countryCode: country,
    socials,
    emails,
    dropshipPhrases,
    myshopifyDomain,
  };
}
