// The Store GraphQL type's reference, apart from its fields so other features (products, apps,
// analytics) can point at Store and add fields to it without import cycles.
import { builder } from '../graphql/builder.ts';
import type { StoreRecord } from './store.sql.ts';

export const StoreRef = builder.objectRef<StoreRecord>('Store');

/** Lists of stores (search results, an app's stores) share one connection type. */
export const StoreConnection = builder.connectionObject(
  {
    type: StoreRef,
    name: 'StoreConnection',
    description:
      'A page of stores (App.stores: the stores running an app), with the total across pages.',
  },
  { name: 'StoreEdge', description: 'One store in a page of stores, with its cursor.' },
);
