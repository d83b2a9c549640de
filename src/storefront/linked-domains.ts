// Discovery from a store's own pages: the other sites its homepage links to (<a href>) that could
// be storefronts. Social networks, the platform's own sites, payment, search and marketplace hosts
// are left out; everything else is only a candidate, validated as a storefront before it enters
// the catalog (src/crawler/discovery). Synthetic (.example) names are never offered.
import { isSyntheticDomain, parseDomain } from '../stores/domain.ts';

/** links taken from one page at most */
export const MAX_LINKED_DOMAINS = 20;

/** Registrable names (and every name under them) that are never storefronts of their own. */
const NOT_STOREFRONTS = [
  'facebook.com',
  'fb.com',
  'instagram.com',
  'tiktok.com',
  'twitter.com',
  'x.com',
  'youtube.com',
  'youtu.be',
  'pinterest.com',
  'linkedin.com',
  'snapchat.com',
  'threads.net',
  'whatsapp.com',
  'wa.me',
  't.me',
  'reddit.com',
  'shopify.com',
  'shopifycdn.com',
  'shop.app',
  'shopifysvc.com',
  'google.com',
  'goo.gl',
  'apple.com',
  'microsoft.com',
  'amazon.com',
  'ebay.com',
  'etsy.com',
  'paypal.com',
  'stripe.com',
  'klarna.com',
  'afterpay.com',
  'wikipedia.org',
  'trustpilot.com',
  'judge.me',
  'klaviyo.com',
  'mailchimp.com',
  'gorgias.com',
  'zendesk.com',
  'bit.ly',
  'linktr.ee',
];

const HREF = /<a\s[^>]*?href\s*=\s*["'](https?:\/\/[^"'#\s>]{4,2048})["']/gi;

const isListed = (domain: string) =>
  NOT_STOREFRONTS.some((name) => domain === name || domain.endsWith(`.${name}`));

/** The canonical domains `html` links to, other than `ownDomain`, that could be storefronts. */
export function linkedDomains(html: string, ownDomain: string): string[] {
  const found = new Set<string>();
  for (const [, href] of html.matchAll(HREF)) {
    const parsed = parseDomain(href!.replace(/&amp;/g, '&'));
    if (!parsed.ok) continue;
    const { domain } = parsed;
    if (domain === ownDomain || isSyntheticDomain(domain) || isListed(domain)) continue;
    found.add(domain);
    if (found.size >= MAX_LINKED_DOMAINS) break;
  }
  return [...found];
}
