// App: a platform app from the app store, its observed install base, and Store.apps.
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { pagedConnection } from '../graphql/pagination.ts';
import { primeStores } from '../stores/store.loaders.ts';
import { StoreConnection, StoreRef } from '../stores/store.ref.ts';
import { appById, appsByStoreId, appStoresPage } from './app.loaders.ts';
import type { AppRecord } from './app.sql.ts';
import { rules } from '../access/field-rules.ts';

export const AppRef = builder.objectRef<AppRecord>('App');

export const AppConnection = builder.connectionObject({ type: AppRef, name: 'AppConnection' }, { name: 'AppEdge' });

builder.node(AppRef, {
  // a node(id) lookup of this type counts as a lookup in this bucket
  extensions: rules({ quota: 'productAppLookups' }),
  description: "A platform app from the app store. installCount counts the catalog's stores observed running it.",
  id: { resolve: (a) => a.id, parse: (id) => Number(id) },
  loadMany: (ids, ctx) => Promise.all(ids.map((id) => (Number.isSafeInteger(id) ? appById(ctx).load(id) : null))),
  fields: (t) => ({
    slug: t.exposeString('slug', { description: "The app's slug in the platform's app store." }),
    name: t.exposeString('name'),
    developer: t.exposeString('developer', { nullable: true }),
    category: t.exposeString('category', { nullable: true }),
    pricing: t.exposeString('pricing', { nullable: true }),
    rating: t.exposeFloat('rating', { nullable: true }),
    reviewCount: t.exposeInt('reviewCount'),
    appStoreUrl: t.exposeString('appStoreUrl', { nullable: true }),
    installCount: t.exposeInt('installCount'),
    stores: t.field({
      type: StoreConnection,
      args: pageArgs,
      description: 'Stores observed running the app, highest modeled monthly visits first. The first page is the install-base sample.',
      resolve: async (app, args, ctx) =>
        pagedConnection(args, async (window) => {
          const page = await appStoresPage(ctx).load({ parentId: app.id, ...window });
          primeStores(ctx, page.rows);
          return page;
        }),
    }),
  }),
});

builder.objectField(StoreRef, 'apps', (t) =>
  t.field({
    type: [AppRef],
    description: 'Installed apps (the whole observed stack), most installed first.',
    resolve: (store, _args, ctx) => appsByStoreId(ctx).load(store.id),
  }),
);
