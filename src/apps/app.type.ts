// App: a platform app from the app store and its observed install count. The relation fields
// (Store.apps, App.stores) live in stores/store-apps.fields.ts, so apps/ needs nothing of stores/.
import { builder } from '../graphql/builder.ts';
import { appById } from './app.loaders.ts';
import type { AppRecord } from './app.sql.ts';
import { rules } from '../access/field-rules.ts';

export const AppRef = builder.objectRef<AppRecord>('App');

export const AppConnection = builder.connectionObject(
  { type: AppRef, name: 'AppConnection' },
  { name: 'AppEdge' },
);

builder.node(AppRef, {
  // a node(id) lookup of this type counts as a lookup in this bucket
  extensions: rules({ quota: 'productAppLookups' }),
  description:
    "A platform app from the app store. installCount counts the catalog's stores observed running it.",
  id: { resolve: (a) => a.id, parse: (id) => Number(id) },
  loadMany: (ids, ctx) =>
    Promise.all(ids.map((id) => (Number.isSafeInteger(id) ? appById(ctx).load(id) : null))),
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
  }),
});
