// The Signals routes, in the order docs.md and the OpenAPI description list them: the paths without
// {domain} first (/v1/signals, then /v1/signals/insights), then one watch's routes by topic. Each
// topic file keeps its own routes in order, so a route of an existing topic is added there.
import type { RestRoute } from '../../route.ts';
import { accountWatchRoutes, watchRoutes } from './signals-watches.ts';
import { insightInboxRoutes, watchInsightRoutes } from './signals-insights.ts';
import { probeRoutes } from './signals-probes.ts';
import { salesRoutes } from './signals-sales.ts';
import { signalChangeRoutes } from './signals-changes.ts';
import { signalAdRoutes } from './signals-ads.ts';

export const signalRoutes: readonly RestRoute[] = [
  ...accountWatchRoutes,
  ...insightInboxRoutes,
  ...watchRoutes,
  ...probeRoutes,
  ...salesRoutes,
  ...watchInsightRoutes,
  ...signalChangeRoutes,
  ...signalAdRoutes,
];
