// The relation between stores and apps, from the stores' side: Store.apps (a store's stack) and
// App.stores (the stores observed running an app). Kept here so the dependency runs one way:
// stores/ reads apps/, apps/ knows nothing of stores/.
import { AppRef } from '../apps/app.type.ts';
import { appsByStoreId } from '../apps/app.loaders.ts';
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { childConnection } from '../graphql/child-pages.ts';
import { appStoresPage, primeStores } from './store.loaders.ts';
import { StoreConnection, StoreRef } from './store.ref.ts';

builder.objectField(StoreRef, 'apps', (t) =>
  t.field({
    type: [AppRef],
    description: 'Installed apps (the whole observed stack), most installed first.',
    resolve: (store, _args, ctx) => appsByStoreId(ctx).load(store.id),
  }),
);

builder.objectField(AppRef, 'stores', (t) =>
  t.field({
    type: StoreConnection,
    args: pageArgs,
    description:
      'Stores observed running the app, highest modeled monthly visits first. The first page is the install-base sample.',
    resolve: (app, args, ctx, info) =>
      childConnection(args, info, app.id, async (key) => {
        const page = await appStoresPage(ctx).load(key);
        primeStores(ctx, page.rows);
        return page;
      }),
  }),
);
