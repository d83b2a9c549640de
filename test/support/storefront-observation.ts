// A storefront observation as the one writer takes it, with nothing observed but what a test names:
// no socials, emails, products or apps; a USD store in the US on the Dawn theme.
import type { StorefrontObservation } from '../../src/storefront/read-storefront.ts';

export const storefrontObservation = (
  observed: Partial<StorefrontObservation> & Pick<StorefrontObservation, 'domain'>,
): StorefrontObservation => ({
  name: observed.domain,
  description: null,
  themeName: 'Dawn',
  currency: 'USD',
  countryCode: 'US',
  socials: {
    instagram: null,
    facebook: null,
    tiktok: null,
    twitter: null,
    youtube: null,
    pinterest: null,
  },
  emails: [],
  dropshipSignals: 0,
  apps: [],
  products: [],
  myshopifyDomain: null,
  linkedDomains: [],
  ...observed,
});
