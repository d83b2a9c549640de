// Store: the card fields (search results) and the profile fields (store(domain)), one type.
import { builder } from '../graphql/builder.ts';
import { PercentBand, RevenueBand } from './bands.type.ts';
import { storeById } from './store.loaders.ts';
import { StoreRef } from './store.ref.ts';
import { rules } from '../access/field-rules.ts';

builder.node(StoreRef, {
  // a node(id) lookup of this type counts as a lookup in this bucket
  extensions: rules({ quota: 'storeLookups' }),
  description:
    'An online store. Visits, revenue band, rating and dropshipper class are modeled figures (see models).',
  id: {
    resolve: (store) => store.id,
    parse: (id) => Number(id),
  },
  loadMany: (ids, ctx) =>
    Promise.all(ids.map((id) => (Number.isSafeInteger(id) ? storeById(ctx).load(id) : null))),
  fields: (t) => ({
    domain: t.exposeString('domain', {
      description: 'Canonical domain: lower case, no scheme, no www.',
    }),
    url: t.string({
      description: "The storefront's address: https:// and the domain.",
      resolve: (s) => `https://${s.domain}/`,
    }),
    name: t.exposeString('name', {
      description: "The store's display name, as its storefront names itself.",
    }),
    monthlyVisits: t.exposeInt('monthlyVisits', { description: 'Modeled monthly visits.' }),
    monthlyRevenueUsd: t.field({
      type: RevenueBand,
      description: 'Modeled monthly revenue band, USD.',
      resolve: (s) => ({ low: s.revenueLowUsd, high: s.revenueHighUsd }),
    }),
    isDropshipper: t.exposeBoolean('isDropshipper', {
      description: 'Classified as a dropshipper (classifier output).',
    }),
    dropshipperScore: t.exposeFloat('dropshipperScore', {
      description: 'Dropshipper classifier score, 0 to 1.',
    }),
    serviceRating: t.exposeInt('serviceRating', {
      description: "The service's own rating, 0 to 100.",
    }),
    serviceGrade: t.exposeString('serviceGrade', {
      description: 'Letter bucket of serviceRating.',
    }),
    vertical: t.exposeString('vertical', {
      nullable: true,
      description:
        "Vertical: the top level of Shopify's product taxonomy, e.g. Apparel & Accessories (the vertical filter's value); null when unclassified.",
    }),
    industry: t.exposeString('industry', {
      nullable: true,
      description:
        'Industry: a coarser grouping of verticals, e.g. Fashion; null when unclassified.',
    }),
    category: t.exposeString('category', {
      nullable: true,
      description:
        'Category: a second-level taxonomy node under the vertical; null when unclassified.',
    }),
    countryCode: t.exposeString('countryCode', {
      nullable: true,
      description: 'ISO 3166-1 alpha-2.',
    }),
    currency: t.exposeString('currency', { description: "The storefront's currency (ISO 4217)." }),
    theme: t.exposeString('themeName', {
      nullable: true,
      description: 'Name of the storefront theme; null when it was not detected.',
    }),
    firstSeenAt: t.expose('firstSeenAt', {
      type: 'DateTime',
      description: 'When the store entered the catalog.',
    }),
    lastScrapedAt: t.expose('lastScrapedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the storefront was last scraped; null when it never was (imported only).',
    }),
    conversionRatePct: t.field({
      type: PercentBand,
      nullable: true,
      description: 'Modeled conversion rate band, percent.',
      resolve: (s) =>
        s.conversionLowPct == null || s.conversionHighPct == null
          ? null
          : { low: s.conversionLowPct, high: s.conversionHighPct },
    }),
    averageOrderValueUsd: t.exposeFloat('averageOrderValueUsd', {
      nullable: true,
      description: 'Modeled, USD.',
    }),
  }),
});
