// App: a platform app from the app store and its observed install count. The relation fields
// (Store.apps, App.stores) live in stores/store-apps.fields.ts, so apps/ needs nothing of stores/.
import { builder } from '../graphql/builder.ts';
import { appById } from './app.loaders.ts';
import type { AppRecord } from './app.sql.ts';
import { rules } from '../access/field-rules.ts';

export const AppRef = builder.objectRef<AppRecord>('App');

export const AppConnection = builder.connectionObject(
  {
    type: AppRef,
    name: 'AppConnection',
    description: 'A page of apps (Query.apps), with the total across pages.',
  },
  { name: 'AppEdge', description: 'One app in a page of apps, with its cursor.' },
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
    name: t.exposeString('name', { description: "The app's name in the app store." }),
    developer: t.exposeString('developer', {
      nullable: true,
      description: 'The company that publishes the app; null when unknown.',
    }),
    category: t.exposeString('category', {
      nullable: true,
      description:
        "The app store category, e.g. Reviews (Query.appRanking's argument); null when unknown.",
    }),
    pricing: t.exposeString('pricing', {
      nullable: true,
      description:
        'Pricing as the app store words it, e.g. "Free plan available; from $15/month"; null when unknown.',
    }),
    rating: t.exposeFloat('rating', {
      nullable: true,
      description: 'Average app store review rating, 1 to 5 stars; null when unknown.',
    }),
    reviewCount: t.exposeInt('reviewCount', { description: 'Number of app store reviews.' }),
    appStoreUrl: t.exposeString('appStoreUrl', {
      nullable: true,
      description: "The app's page in the app store; null when unknown.",
    }),
    installCount: t.exposeInt('installCount', {
      description: "Catalog stores observed running the app (not the app store's own figure).",
    }),
  }),
});
