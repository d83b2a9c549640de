// The route families the bench drives, each with the rotating request paths built from the sample,
// the connections of its loaded run and the target (issue 7) it is judged against.
import type { CatalogSample } from './catalog.ts';
import type { BenchRequest } from './load.ts';

export interface Target {
  /** the p50 the family must stay within, in ms */
  p50Ms: number;
  /** the single-connection p99 it must stay within, the first request after a restart included (issue 14) */
  p99Ms?: number;
  /** the throughput it must reach at its loaded connections, if the issue sets one */
  minRps?: number;
  /** where the p50 target is read: the loaded run (profile: the issue says "with 32 connections") or the single-connection run */
  p50From: 'loaded' | 'single';
}

export interface Family {
  name: string;
  route: string;
  connections: number;
  paths: string[];
  target: Target;
  /** time the first request of a freshly started service too (each restart takes the next path) */
  firstAfterRestart?: boolean;
  /** a POST family's requests, driven and probed instead of GETs of `paths` (which then name their paths) */
  requests?: BenchRequest[];
}

/** domains asked per bulk lookup, the route's maximum */
const LOOKUP_DOMAINS = 100;
/** domains of each lookup the catalog lacks: notFound is part of the answer being timed */
const LOOKUP_MISSING = 5;

/** Bulk lookups of 100 domains each, the sample's stores in turn (names the catalog lacks filling in where it has fewer). */
function lookupRequests(stores: CatalogSample['stores']): BenchRequest[] {
  const found = LOOKUP_DOMAINS - LOOKUP_MISSING;
  return Array.from({ length: 8 }, (_, i) => {
    const domains = Array.from({ length: LOOKUP_DOMAINS }, (_, j) =>
      j < found && stores.length > 0
        ? stores[(i * found + j) % stores.length]!.domain
        : `no-such-store-${i}-${j}.example`,
    );
    return {
      method: 'POST' as const,
      path: '/v1/stores/lookup',
      body: JSON.stringify({ domains }),
    };
  });
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

export function buildFamilies(sample: CatalogSample): Family[] {
  const { stores, storeQueries, verticals, countries, titleQueries, apps } = sample;
  const filtered = verticals.flatMap((vertical, i) => [
    `/v1/stores?${q({ vertical, countryCode: countries[i % countries.length]!, minVisits: '1000', sort: 'visits' })}`,
    `/v1/stores?${q({ vertical: vertical.toLowerCase(), isDropshipper: 'false', sort: 'revenue' })}`,
  ]);
  return [
    {
      name: 'store profile',
      route: 'GET /v1/stores/{domain}',
      connections: 32,
      paths: stores.map((s) => `/v1/stores/${encodeURIComponent(s.domain)}`),
      target: { p50Ms: 5, minRps: 2_000, p50From: 'loaded' },
    },
    {
      name: 'fuzzy q store search',
      route: 'GET /v1/stores?q=',
      connections: 4,
      paths: storeQueries.map((w) => `/v1/stores?${q({ q: w })}`),
      target: { p50Ms: 25, p99Ms: 50, p50From: 'single' },
      firstAfterRestart: true,
    },
    {
      name: 'filtered + sorted store search',
      route: 'GET /v1/stores?vertical=&countryCode=&minVisits=&sort=',
      connections: 4,
      paths: filtered,
      target: { p50Ms: 15, p50From: 'single' },
    },
    {
      name: 'grouped rollup (country x category, median)',
      route: 'GET /v1/stores?groupBy=country&groupBy2=category&groupMetric=median',
      connections: 2,
      paths: [
        `/v1/stores?${q({ groupBy: 'country', groupBy2: 'category', groupMetric: 'median' })}`,
      ],
      target: { p50Ms: 300, p50From: 'single' },
    },
    {
      name: 'analytics overview',
      route: 'GET /v1/analytics/overview',
      connections: 4,
      paths: ['/v1/analytics/overview'],
      target: { p50Ms: 10, p50From: 'single' },
    },
    {
      name: 'movers',
      route: 'GET /v1/analytics/movers?metric=&direction=',
      connections: 4,
      paths: ['visits', 'revenue'].flatMap((metric) =>
        ['up', 'down'].map((direction) => `/v1/analytics/movers?${q({ metric, direction })}`),
      ),
      target: { p50Ms: 50, p50From: 'single' },
    },
    {
      name: 'product title search',
      route: 'GET /v1/products?q=',
      connections: 4,
      paths: titleQueries.map((w) => `/v1/products?${q({ q: w })}`),
      target: { p50Ms: 40, p99Ms: 50, p50From: 'single' },
      firstAfterRestart: true,
    },
    {
      name: 'app filter',
      route: 'GET /v1/stores?app=',
      connections: 4,
      paths: apps.map((app) => `/v1/stores?${q({ app })}`),
      target: { p50Ms: 15, p50From: 'single' },
    },
    {
      name: 'app + country, sorted',
      route: 'GET /v1/stores?app=&countryCode=&sort=',
      connections: 4,
      paths: apps.flatMap((app, i) => [
        `/v1/stores?${q({ app, countryCode: countries[i % countries.length]!, sort: 'visits' })}`,
        `/v1/stores?${q({ app, countryCode: countries[(i + 1) % countries.length]!, sort: 'revenue' })}`,
      ]),
      target: { p50Ms: 15, p50From: 'single' },
    },
    {
      name: 'bulk store lookup (100 domains)',
      route: 'POST /v1/stores/lookup',
      connections: 4,
      paths: lookupRequests(stores).map((request) => request.path),
      requests: lookupRequests(stores),
      target: { p50Ms: 30, p50From: 'single' },
    },
    {
      name: 'app installed since',
      route: 'GET /v1/stores?installedApp=&installedSince=',
      connections: 4,
      // installs first seen in the last 90 days and in the last year, of the most installed apps
      paths: apps.flatMap((installedApp) =>
        [90, 365].map(
          (days) =>
            `/v1/stores?${q({ installedApp, installedSince: new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10) })}`,
        ),
      ),
      target: { p50Ms: 15, p50From: 'single' },
    },
    {
      name: 'app grouped by country',
      route: 'GET /v1/stores?app=&groupBy=country',
      connections: 2,
      paths: apps.map((app) => `/v1/stores?${q({ app, groupBy: 'country' })}`),
      target: { p50Ms: 300, p50From: 'single' },
    },
    {
      name: 'app trend',
      route: 'GET /v1/apps/{slug}/trend?months=12',
      connections: 4,
      paths: apps.flatMap((app, i) => [
        `/v1/apps/${app}/trend?months=12`,
        `/v1/apps/${app}/trend?${q({ months: '12', countryCode: countries[i % countries.length]! })}`,
        `/v1/apps/${app}/trend?${q({ months: '12', vertical: verticals[i % verticals.length]! })}`,
      ]),
      target: { p50Ms: 5, p50From: 'single' },
    },
  ];
}
