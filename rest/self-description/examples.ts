// GET /v1/examples: the contract's workflows as concrete HTTP steps an agent can follow. A {name}
// in a path is taken from the previous step's answer, as its `next` says. Catalog values are the
// seeded catalog's (src/seed/seeded-catalog.ts): every catalog recipe answers data, followed as is.
import { SEEDED, UNLISTED } from '../../src/seed/seeded-catalog.ts';
import type { ExamplesDocument } from '../openapi/self-description-paths.ts';

/** the catalog's own spelling of a value, as it goes into a query string */
const q = encodeURIComponent;
const cohort = `vertical=${q(SEEDED.vertical)}&minVisits=10000`;
/** a storefront the seeded catalog lacks: the story of the storefront recipes and route examples */
const UNLISTED_STORE = UNLISTED.store;

export const EXAMPLES: ExamplesDocument = {
  workflows: [
    {
      id: 'search-then-fetch',
      title: 'Search, then fetch by the domain the API returned',
      steps: [
        {
          method: 'GET',
          path: `/v1/stores?q=${SEEDED.brand}&limit=5`,
          purpose:
            'Find the store by brand, name or domain (typo-tolerant; the exact domain comes first).',
          next: 'Take data[i].domain of the right card as {domain}. Never guess a domain.',
        },
        {
          method: 'GET',
          path: '/v1/stores/{domain}',
          purpose: 'Read the unified profile.',
          next: 'Present monthlyRevenueUsd as a modeled band and isDropshipper as a classification.',
        },
        {
          method: 'GET',
          path: '/v1/stores/{domain}/products?isBestSeller=true',
          purpose: 'Read its best sellers.',
          next: 'Page with offset while page.hasMore is true.',
        },
      ],
    },
    {
      id: 'cohort-rollup-then-drill-down',
      title: 'Roll a cohort up, then drill into one cell',
      steps: [
        {
          method: 'GET',
          path: `/v1/stores?${cohort}&groupBy=country&groupBy2=category&groupMetric=median&sort=stores`,
          purpose:
            "Grouped rows (meta.mode = grouped) of the filtered cohort by country, then category. Filter values are the catalog's own (GET /v1/analytics/verticals lists the verticals).",
          next: 'Pick a row; its parent is the country code and its leaf the category.',
        },
        {
          method: 'GET',
          path: `/v1/stores?${cohort}&countryCode=${SEEDED.countryCode}&category=${q(SEEDED.category)}&sort=revenue`,
          purpose: 'Drop groupBy and add the cell as filters: the store cards behind that cell.',
          next: 'Fetch profiles by the domains returned.',
        },
      ],
    },
    {
      id: 'market-then-movers',
      title: 'Size a market, then find its movers',
      steps: [
        {
          method: 'GET',
          path: '/v1/analytics/verticals?limit=10',
          purpose: 'Store count and modeled revenue, visits and ad spend per vertical.',
          next: 'Take data[i].vertical as the vertical to study.',
        },
        {
          method: 'GET',
          path: `/v1/analytics/countries?vertical=${q(SEEDED.vertical)}&limit=10`,
          purpose: 'The same vertical by country.',
          next: 'Modeled figures: present them as estimates.',
        },
        {
          method: 'GET',
          path: `/v1/analytics/movers?metric=visits&direction=up&minPct=25&vertical=${q(SEEDED.vertical)}&limit=10`,
          purpose: 'Stores of that vertical whose modeled visits grew by 25 % or more.',
          next: 'Fetch profiles by the domains returned.',
        },
      ],
    },
    {
      id: 'app-then-its-stores',
      title: 'Find an app, then the stores running it',
      steps: [
        {
          method: 'GET',
          path: '/v1/apps?q=reviews&limit=5',
          purpose: 'Apps matching a query.',
          next: 'Take data[i].slug as {slug}.',
        },
        {
          method: 'GET',
          path: '/v1/apps/{slug}/stores?limit=20',
          purpose: 'Stores observed running the app, most visits first.',
          next: 'Fetch profiles by the domains returned, or follow the app over time.',
        },
        {
          method: 'GET',
          path: '/v1/apps/{slug}/trend?months=12',
          purpose:
            'Its installs, uninstalls, install base and share of the observed stores, month by month (GET /v1/analytics/apps?category=... ranks its category).',
          next: 'Narrow with vertical or countryCode.',
        },
      ],
    },
    {
      id: 'technology-then-stores',
      title: 'Pick real filter values, then list the stores running an app',
      steps: [
        {
          method: 'GET',
          path: `/v1/stores/facets?vertical=${q(SEEDED.vertical)}&perFacet=10`,
          purpose:
            'The valid values of every store filter (apps, themes, countries, tld, ...) with store counts in that vertical.',
          next: 'Take a value from facets.app (an app slug), facets.theme or facets.countryCode as the filter of the same name.',
        },
        {
          method: 'GET',
          path: `/v1/stores?app=${SEEDED.appSlug}&countryCode=${SEEDED.countryCode}&sort=visits&limit=10`,
          purpose:
            'Stores running the app in that country, most visited first (app takes several slugs: all must run; anyApp, notApp too).',
          next: 'An unknown value answers an empty list with meta.suggestions naming the nearest valid values.',
        },
        {
          method: 'GET',
          path: `/v1/stores?app=${SEEDED.appSlug}&theme=Dawn&groupBy=country&sort=stores`,
          purpose: 'The same technology cohort rolled up by country (meta.mode = grouped).',
          next: "Drop groupBy and add a row's country as countryCode to list its stores.",
        },
      ],
    },
    {
      id: 'lookup-a-list',
      title: 'Look up a list of domains at once, then fetch one',
      steps: [
        {
          method: 'POST',
          path: '/v1/stores/lookup',
          body: {
            domains: [
              SEEDED.domain,
              `https://www.${SEEDED.otherDomain}/`,
              'no-such-brand.store.example',
            ],
          },
          purpose:
            'Up to 100 domains (JSON, or a text/csv column): cards in the order asked, notFound for the rest; each store found costs one store lookup. Accept: text/csv answers a CSV.',
          next: 'Take data[i].domain as {domain}; request a scrape for a domain in notFound.',
        },
        {
          method: 'GET',
          path: '/v1/stores/{domain}',
          purpose: 'Read the unified profile of one of them.',
          next: 'Present monthlyRevenueUsd as a modeled band.',
        },
      ],
    },
    {
      id: 'app-changes-then-stores',
      title: 'Find the stores that installed or dropped an app, and when',
      steps: [
        {
          method: 'GET',
          path: `/v1/stores?installedApp=${SEEDED.changedApp}&installedSince=${SEEDED.changesSince}&installedBefore=${SEEDED.changesBefore}&limit=10`,
          purpose:
            'Stores first seen running the app within the window (observation dates, UTC), whether or not they still run it.',
          next: 'Add app=<slug> to keep those that still run it; dates also take full ISO timestamps (2026-01-31T12:00:00Z).',
        },
        {
          method: 'GET',
          path: `/v1/stores?uninstalledApp=${SEEDED.changedApp}&uninstalledSince=${SEEDED.changesSince}&uninstalledBefore=${SEEDED.changesBefore}`,
          purpose: 'Stores first seen without the app within the window: they dropped it.',
          next: 'Combine with any other store filter, e.g. countryCode or anyApp to see what they run instead.',
        },
        {
          method: 'GET',
          path: `/v1/stores?uninstalledApp=${SEEDED.changedApp}&app=${SEEDED.changedApp}`,
          purpose: 'Stores that dropped the app at some point and run it again now.',
          next: 'Fetch a profile by a domain returned; GET /v1/stores/{domain}/apps shows its current stack.',
        },
        {
          method: 'GET',
          path: `/v1/stores?installedApp=${SEEDED.changedApp}&installedSince=${SEEDED.changesSince}&groupBy=country`,
          purpose: 'The same installs rolled up by country (meta.mode = grouped).',
          next: "Drop groupBy and add a row's country as countryCode to list its stores.",
        },
      ],
    },
    {
      id: 'scrape-then-poll',
      title: 'Scrape a store missing from the catalog, then poll',
      steps: [
        {
          method: 'GET',
          path: `/v1/stores?q=${UNLISTED_STORE}&limit=1`,
          purpose:
            'Check the catalog first (GET /v1/stores/{domain} answers 404 not_found for a store it lacks).',
          next: 'An exact domain comes first: when data[0].domain is not the store, it is not in the catalog: queue a scrape.',
        },
        {
          method: 'POST',
          path: '/v1/scrapes',
          body: { domain: UNLISTED_STORE },
          purpose:
            'Queue the scrape (202 with an id; already_exists when the store is known and force is not true).',
          next: 'Keep the id as {id}. Optionally pass callbackUrl (HTTPS) to get scrape.done or scrape.failed once.',
        },
        {
          method: 'GET',
          path: '/v1/scrapes/{id}',
          purpose: 'Poll the status: queued, validating, scraping, then done or failed.',
          next: 'Repeat every few seconds until done or failed (about two minutes typical; the record lives 15 minutes).',
        },
        {
          method: 'GET',
          path: `/v1/stores/${UNLISTED_STORE}`,
          purpose: 'Read the new profile once the scrape is done.',
          next: 'Done.',
        },
      ],
    },
    {
      id: 'watch-then-read-sales',
      title: 'Watch a competitor, then read its estimated sales',
      steps: [
        {
          method: 'POST',
          path: '/v1/signals',
          body: { domain: SEEDED.domain },
          purpose:
            'Create the watch of a store in the catalog whose storefront answers (a seeded store, or one just scraped; ' +
            '409 if this key already tracks it); best sellers are tracked automatically.',
          next: 'Poll the first probe.',
        },
        {
          method: 'GET',
          path: `/v1/signals/${SEEDED.domain}/probe`,
          purpose: 'Follow the first probe: the first inventory snapshot.',
          next: 'Repeat until progress.status is done or failed.',
        },
        {
          method: 'POST',
          path: `/v1/signals/${SEEDED.domain}/probe`,
          purpose:
            'A day later, probe again (or wait for the scheduled probe): sales are estimated from 2 snapshots.',
          next: 'Poll GET /v1/signals/{domain}/probe again until done.',
        },
        {
          method: 'GET',
          path: `/v1/signals/${SEEDED.domain}/sales?from=2025-01-01`,
          purpose: 'Daily units and revenue, estimated from stock decreases between snapshots.',
          next: 'Present them as estimates.',
        },
        {
          method: 'GET',
          path: `/v1/signals/${SEEDED.domain}/stats`,
          purpose: 'Aggregate estimated sales of the watch.',
          next: 'Done.',
        },
      ],
    },
    {
      id: 'alert-then-matches',
      title: 'Save a store search as an alert, then read the stores that newly match it',
      steps: [
        {
          method: 'POST',
          path: '/v1/alerts',
          body: {
            name: `Stores that start running ${SEEDED.appSlug}`,
            filter: { app: SEEDED.appSlug },
          },
          purpose:
            'Save the filters of GET /v1/stores (sort, groupBy and pagination aside) as an alert (201 with its id). ' +
            'Stores already matching now are not matches; add callbackUrl (HTTPS) for signed alert.matched webhooks.',
          next: 'Keep the id as {id}. Matches appear as observations see stores newly match (install the app, ...).',
        },
        {
          method: 'GET',
          path: '/v1/alerts/{id}/matches',
          purpose: 'The stores that newly matched, newest first, with when the observation saw it.',
          next: 'Read a store with GET /v1/stores/{domain}; page on while page.hasMore is true.',
        },
      ],
    },
  ],
};
