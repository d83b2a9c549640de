// The catalog route table, in the order docs.md and the OpenAPI description list the routes.
// Static segments before parameters where both could match (Fastify matches static first anyway;
// the order here is for readers).
import type { RestRoute } from '../route.ts';
import {
  getAnalyticsOverview,
  listCountryStats,
  listMovers,
  listVerticalStats,
} from './analytics/analytics.ts';
import { getApp, listAppStores, searchApps } from './apps/apps.ts';
import { getAppTrend, listAppRanking } from './apps/app-trends.ts';
import { listChanges } from './changes/changes.ts';
import { lookupStores } from './stores/store-lookup.ts';
import { getUsage } from './usage/usage.ts';
import { createAlert, deleteAlert, listAlertMatches, listAlerts } from './alerts/alerts.ts';
import { getScrapeRequest, requestScrape, requestScrapesBulk } from './scrapes/scrapes.ts';
import {
  listSignalAppChanges,
  listSignalApps,
  listSignalProductChanges,
} from './signals/signals-changes.ts';
import { getSignalAdsOverview, listSignalAds, probeSignalAds } from './signals/signals-ads.ts';
import {
  createSignal,
  deleteSignal,
  getSignal,
  getSignalInventory,
  getSignalProbe,
  getSignalSales,
  getSignalStats,
  listInsightInbox,
  listSignalInsights,
  listSignals,
  probeSignal,
  stopSignal,
  updateSignal,
} from './signals/signals.ts';
import { getProduct, listProductChanges, searchProducts } from './products/products.ts';
import {
  compareStores,
  getStore,
  getStoreTraffic,
  listStoreApps,
  listStoreHistory,
  listStoreProducts,
  searchStores,
  storeFacets,
} from './stores/stores.ts';

export const catalogRoutes: readonly RestRoute[] = [
  searchStores,
  storeFacets,
  compareStores,
  lookupStores,
  getStore,
  listStoreProducts,
  listStoreHistory,
  getStoreTraffic,
  listStoreApps,
  searchProducts,
  listProductChanges,
  getProduct,
  listChanges,
  getAnalyticsOverview,
  listVerticalStats,
  listCountryStats,
  listMovers,
  listAppRanking,
  searchApps,
  getApp,
  listAppStores,
  getAppTrend,
  requestScrape,
  requestScrapesBulk,
  getScrapeRequest,
  createSignal,
  listSignals,
  listInsightInbox,
  getSignal,
  updateSignal,
  stopSignal,
  deleteSignal,
  probeSignal,
  getSignalProbe,
  getSignalStats,
  getSignalSales,
  getSignalInventory,
  listSignalInsights,
  listSignalApps,
  listSignalAppChanges,
  listSignalProductChanges,
  probeSignalAds,
  listSignalAds,
  getSignalAdsOverview,
  createAlert,
  listAlerts,
  listAlertMatches,
  deleteAlert,
  getUsage,
];
