// Signal.apps, Signal.appChanges and Signal.productChanges (GET /v1/signals/{domain}/apps,
// /apps/changes and /products/changes): the watched store's app stack and the change records the
// scrapes and the watch's own storefront observations wrote. App history is the store's whole
// observed history; product changes are this watch's, detected since it was created.
import {
  APP_CHANGE_TYPES,
  countChanges,
  findChanges,
  type ChangeQuery,
} from '../../change-feed/change.sql.ts';
import {
  ChangeConnection,
  ChangeTypeEnum,
  PRODUCT_CHANGE_TYPE_NAMES,
  productChangeTypes,
} from '../../change-feed/change.type.ts';
import { builder } from '../../graphql/builder.ts';
import type { GraphqlContext } from '../../graphql/context.ts';
import { pageArgs } from '../../graphql/page-args.ts';
import { offsetConnection } from '../../graphql/pagination.ts';
import { SignalRef } from '../signal.ref.ts';
import { watchedAppsByStoreId, type WatchedAppRow } from './watched-apps.sql.ts';

const SignalAppRef = builder.objectRef<WatchedAppRow>('SignalApp');

SignalAppRef.implement({
  description:
    'An app observed on a watched store, with when the storefront was first and last seen running it.',
  fields: (t) => ({
    slug: t.exposeString('slug', { description: "The app's slug in the platform's app store." }),
    name: t.exposeString('name', { description: "The app's name in the app store." }),
    developer: t.exposeString('developer', {
      nullable: true,
      description: 'The company that publishes the app; null when unknown.',
    }),
    category: t.exposeString('category', {
      nullable: true,
      description: 'The app store category, e.g. Reviews; null when unknown.',
    }),
    pricing: t.exposeString('pricing', {
      nullable: true,
      description: 'Pricing as the app store words it; null when unknown.',
    }),
    rating: t.exposeFloat('rating', {
      nullable: true,
      description: 'Average app store review rating, 1 to 5 stars; null when unknown.',
    }),
    appStoreUrl: t.exposeString('appStoreUrl', {
      nullable: true,
      description: "The app's page in the app store; null when unknown.",
    }),
    installCount: t.exposeInt('installCount', {
      description: 'Catalog stores observed running the app.',
    }),
    firstSeenAt: t.expose('firstSeenAt', {
      type: 'DateTime',
      description: 'The first observation (scrape or probe) that saw the app on this store.',
    }),
    lastSeenAt: t.expose('lastSeenAt', {
      type: 'DateTime',
      description: 'The latest observation that saw it.',
    }),
  }),
});

function changeConnection(
  args: { first?: number | null; after?: string | null },
  ctx: GraphqlContext,
  query: ChangeQuery,
) {
  const pool = ctx.services.db.pool;
  return offsetConnection(
    args,
    (window) => findChanges(pool, query, window),
    () => countChanges(pool, query),
  );
}

builder.objectFields(SignalRef, (t) => ({
  apps: t.field({
    type: [SignalAppRef],
    description: "The watched store's app stack as last observed, most recently installed first.",
    resolve: (watch, _args, ctx) => watchedAppsByStoreId(ctx).load(watch.storeId),
  }),
  appChanges: t.field({
    type: ChangeConnection,
    description:
      "Apps installed on and removed from the watched store, newest first: the store's whole observed history " +
      "(catalog scrapes and every watch's storefront observations), including changes seen before this watch existed.",
    args: pageArgs,
    resolve: (watch, args, ctx) =>
      changeConnection(args, ctx, {
        entity: 'app',
        changeTypes: APP_CHANGE_TYPES,
        domain: watch.domain,
      }),
  }),
  productChanges: t.field({
    type: ChangeConnection,
    description:
      'Price changes, new and removed SKUs of the watched store detected since this watch was created ' +
      '(productChangesSince), newest first.',
    args: {
      ...pageArgs,
      changeType: t.arg({
        type: ChangeTypeEnum,
        description: `Only this kind, a product change: ${PRODUCT_CHANGE_TYPE_NAMES} (another is bad_request).`,
      }),
    },
    resolve: (watch, { changeType, ...args }, ctx) =>
      changeConnection(args, ctx, {
        entity: 'product',
        changeTypes: productChangeTypes(changeType, 'changeType'),
        domain: watch.domain,
        since: watch.createdAt,
      }),
  }),
  productChangesSince: t.expose('createdAt', {
    type: 'DateTime',
    description: 'Where productChanges starts: the creation of this watch.',
  }),
}));
