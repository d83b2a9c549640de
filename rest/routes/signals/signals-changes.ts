// The watched store's apps, app history and product changes (spec part 4, Signals). Like every
// Signals route, {domain} names the caller's own watch; another account's is not_found.
import { changeBody } from '../../bodies.ts';
import { toGraphqlEnum } from '../../../src/graphql/enums.ts';
import { z } from 'zod';
import { PRODUCT_CHANGE_TYPES } from '../../../src/change-feed/change.sql.ts';
import {
  ListSignalAppChangesDocument,
  ListSignalAppsDocument,
  ListSignalProductChangesDocument,
} from '../../generated/operations.ts';
import { connectionArgs, listEnvelopeOf, pageOfList } from '../../pagination.ts';
import { enumParam, paginationParams, textParam } from '../../params.ts';
import { defineRoute, type RestRoute } from '../../route.ts';
import { App, Change, DateTime, listOf, Page } from '../../shapes.ts';
import { UNLISTED } from '../../../src/seed/seeded-catalog.ts';

// the catalog's app without its review count, with when observations saw it on this store
export const SignalApp = App.omit({ reviewCount: true })
  .extend({
    firstSeenAt: DateTime.meta({
      description: 'The first observation (scrape or probe) that saw the app on this store.',
    }),
    lastSeenAt: DateTime.meta({ description: 'The latest observation that saw it.' }),
  })
  .meta({ id: 'SignalApp', description: 'An app on a watched store.' });

export const SignalAppList = listOf(
  SignalApp,
  'SignalAppList',
  'The whole app stack of the watched store, most recently installed first (page.hasMore is always false).',
);

export const SignalAppChangeList = listOf(
  Change,
  'SignalAppChangeList',
  "Installs (app_installed) and removals (app_uninstalled) of apps on the watched store, newest first: the store's whole observed history.",
);

export const SignalProductChangeList = z
  .strictObject({
    data: z.array(Change),
    page: Page,
    meta: z.strictObject({
      watchedSince: DateTime.meta({
        description: 'When the watch was created: the list holds changes detected from then on.',
      }),
    }),
  })
  .meta({
    id: 'SignalProductChangeList',
    description:
      'Price changes, new and removed SKUs of the watched store since the watch was created, newest first.',
  });

const watchPath = z.strictObject({
  domain: textParam(2048).meta({
    description:
      "The watched store: a bare domain, a URL-encoded full URL, or the store's legacy id (24 hex characters).",
    example: UNLISTED.store,
  }),
});

const WATCH_SCOPE =
  "The caller's own watch of the store (not_found for a store the account does not watch); a partner key " +
  '(signals:read) reads any store already on Signals.';

export const listSignalApps = defineRoute({
  operationId: 'listSignalApps',
  method: 'GET',
  path: '/v1/signals/{domain}/apps',
  tag: 'Signals',
  summary: 'The apps on a watched store',
  description:
    'The app stack as last observed (a scrape or a probe of any watch on the store), most recently installed ' +
    'first, with when each app was first and last seen; paged with limit and offset like every list. ' +
    WATCH_SCOPE,
  document: ListSignalAppsDocument,
  pathParams: watchPath,
  query: z.strictObject(paginationParams()),
  canBeNotFound: true,
  variables: (p) => ({ domain: p.domain }),
  response: SignalAppList,
  respond: (data, p) => pageOfList(data.signal.apps, p),
  example: `/v1/signals/${UNLISTED.store}/apps`,
});

export const listSignalAppChanges = defineRoute({
  operationId: 'listSignalAppChanges',
  method: 'GET',
  path: '/v1/signals/{domain}/apps/changes',
  tag: 'Signals',
  summary: 'Install and uninstall history of a watched store',
  description:
    'Change records of entity app (changeType app_installed or app_uninstalled, subject the app slug), newest ' +
    "first. This is the store's whole observed history, including installs seen by catalog scrapes before the " +
    'watch existed; each probe adds what changed since the previous observation. Each change also reaches every ' +
    `watch of the store as an app_change insight. ${WATCH_SCOPE}`,
  document: ListSignalAppChangesDocument,
  pathParams: watchPath,
  query: z.strictObject({ ...paginationParams() }),
  canBeNotFound: true,
  variables: (p) => ({ domain: p.domain, ...connectionArgs(p) }),
  response: SignalAppChangeList,
  respond: (data, p) => listEnvelopeOf(data.signal.appChanges, p, changeBody),
  example: `/v1/signals/${UNLISTED.store}/apps/changes?limit=20`,
});

export const listSignalProductChanges = defineRoute({
  operationId: 'listSignalProductChanges',
  method: 'GET',
  path: '/v1/signals/{domain}/products/changes',
  tag: 'Signals',
  summary: 'Price changes, new and removed SKUs on a watch',
  description:
    'Change records of entity product (price_increase, price_decrease, new_sku, removed_sku; subject the product ' +
    "handle, prices in the store's currency), newest first, detected since the watch was created: `meta.watchedSince` " +
    'says from when. Each probe compares the whole storefront catalog with the previous observation, so this ' +
    'covers every product of the store, not only the tracked ones. Before the first probe the list is empty. ' +
    WATCH_SCOPE,
  document: ListSignalProductChangesDocument,
  pathParams: watchPath,
  query: z.strictObject({
    changeType: enumParam(PRODUCT_CHANGE_TYPES)
      .optional()
      .meta({ description: 'Only changes of this kind.' }),
    ...paginationParams(),
  }),
  canBeNotFound: true,
  variables: (p) => ({
    domain: p.domain,
    changeType: p.changeType && toGraphqlEnum(p.changeType),
    ...connectionArgs(p),
  }),
  response: SignalProductChangeList,
  respond: (data, p) => ({
    ...listEnvelopeOf(data.signal.productChanges, p, changeBody),
    meta: { watchedSince: data.signal.productChangesSince },
  }),
  example: `/v1/signals/${UNLISTED.store}/products/changes?changeType=price_decrease`,
});

/** The Signals routes of the watched store's apps and changes, in the order docs.md and the OpenAPI description list them. */
export const signalChangeRoutes: readonly RestRoute[] = [
  listSignalApps,
  listSignalAppChanges,
  listSignalProductChanges,
];
