// The registrable domain of a canonical domain: its public suffix (the Public Suffix List, private
// section included, via tldts) and one label more: example.co.uk for shop.example.co.uk, and
// store.myshopify.com for itself. A name under no known suffix keeps its last two labels.
import { getDomain } from 'tldts';

export const registrableDomain = (domain: string): string =>
  getDomain(domain, { allowPrivateDomains: true }) ?? domain;
