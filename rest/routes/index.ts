// The catalog route table: the route groups in the order docs.md and the OpenAPI description list
// the routes. Each group lists its own routes in order (static segments before parameters where
// both could match; Fastify matches static first anyway, the order is for readers): in its route
// file, or, for a group split by topic (stores/, signals/), in its index.ts over the topic files'
// arrays. A new route of a group is added there, not here.
import type { RestRoute } from '../route.ts';
import { storeRoutes } from './stores/index.ts';
import { productRoutes } from './products/products.ts';
import { changeRoutes } from './changes/changes.ts';
import { analyticsRoutes } from './analytics/analytics.ts';
import { appRoutes } from './apps/apps.ts';
import { scrapeRoutes } from './scrapes/scrapes.ts';
import { signalRoutes } from './signals/index.ts';
import { alertRoutes } from './alerts/alerts.ts';
import { usageRoutes } from './usage/usage.ts';

export const catalogRoutes: readonly RestRoute[] = [
  ...storeRoutes,
  ...productRoutes,
  ...changeRoutes,
  ...analyticsRoutes,
  ...appRoutes,
  ...scrapeRoutes,
  ...signalRoutes,
  ...alertRoutes,
  ...usageRoutes,
];
