// Values of the catalog a first `npm start` seeds (seed 1): the workflow recipes, the route
// examples and the GraphQL IDE's first tab use them, so each answers data when followed literally.
// Store domains derive from the store id alone (src/seed/names.ts) and a store's facts from the
// seed and its id, so these exist in every catalog seeded with seed 1 and at least 38 stores.
// test/self-description/recipes.test.ts follows every recipe on such a catalog.
export const SEEDED = {
  /** a brand whose search finds `domain` first */
  brand: 'riverbasket',
  /** store 38: best sellers, six apps, two years of third-party traffic */
  domain: 'riverbasket.store.example',
  /** the same store's best seller */
  productHandle: 'eco-friendly-interactive-dog-treats',
  /** a second store, for comparisons */
  otherDomain: 'vistapeak.co.example',
  /** an app installed on `domain` */
  appSlug: 'judgeme',
  /** the largest vertical and its largest category, as the catalog spells them */
  vertical: 'Apparel & Accessories',
  category: 'Clothing',
  countryCode: 'US',
  /**
   * an app stores were observed installing and dropping between `changesSince` and `changesBefore`
   * (the seed dates its app history over the stores' observed lives, up to about three years back);
   * store 38 (`domain`) dropped it and installed it again
   */
  changedApp: 'judgeme',
  changesSince: '2025-01-01',
  changesBefore: '2027-01-01',
} as const;

/**
 * Storefronts the seeded catalog lacks, for the recipes and route examples of scrapes, screenshots
 * and Signals. Their story: scrape `store`, then watch it (its storefront answers); `otherStore` is
 * the second name of the bulk scrape. Both lie under the reserved .example domain and carry a
 * hyphen in their brand, which no seeded name has: the demo storefronts (src/storefront/demo) answer
 * for them on a fresh install, so every example works offline.
 * test/storefront/fresh-install-lifecycle.e2e.test.ts follows every example on a fresh install;
 * test/self-description/storefront-route-examples.test.ts against fixture storefronts answering as these names.
 */
export const UNLISTED = {
  store: 'new-brand.shop.example',
  otherStore: 'other-brand.shop.example',
} as const;
