// The Stores routes, in the order docs.md and the OpenAPI description list them: each topic file
// keeps its own routes in order, so a route of an existing topic is added there, not here.
import type { RestRoute } from '../../route.ts';
import { storeSearchRoutes } from './store-search.ts';
import { storeFacetRoutes } from './store-facets.ts';
import { storeCompareRoutes } from './store-compare.ts';
import { storeLookupRoutes } from './store-lookup.ts';
import { storeProfileRoutes } from './store-profile.ts';
import { storeProfileListRoutes } from './store-profile-lists.ts';

export const storeRoutes: readonly RestRoute[] = [
  ...storeSearchRoutes,
  ...storeFacetRoutes,
  ...storeCompareRoutes,
  ...storeLookupRoutes,
  ...storeProfileRoutes,
  ...storeProfileListRoutes,
];
