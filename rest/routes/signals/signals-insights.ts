// Insight cards: one watch's, and the inbox across every watch of the key's account.
import { z } from 'zod';
import {
  ListInsightInboxDocument,
  ListSignalInsightsDocument,
  type InsightFieldsFragment,
} from '../../generated/operations.ts';
import { fromGraphqlEnum, toGraphqlEnum } from '../../../src/graphql/enums.ts';
import { connectionArgs, listEnvelope } from '../../pagination.ts';
import { enumParam, paginationParams } from '../../params.ts';
import { defineRoute, noPathParams, type RestRoute } from '../../route.ts';
import { DateTime, listOf } from '../../shapes.ts';
import {
  INSIGHT_KINDS,
  SPIKE_FACTOR,
  SPIKE_MIN_TRAILING_DAYS,
  SPIKE_MIN_UNITS,
  SPIKE_TRAILING_DAYS,
} from '../../../src/signals/insights/insight-rules.ts';
import { PARTNER_READ, SCOPE, STORE, watchPath } from './signals-watches.ts';

export const Insight = z
  .strictObject({
    id: z.number().int(),
    domain: z.string().meta({ description: 'The watched store.' }),
    kind: z.enum(['sales_spike', 'restock', 'ad_new_campaign', 'app_change', 'price_change']),
    title: z.string(),
    body: z.string(),
    data: z
      .record(z.string(), z.unknown())
      .meta({ description: 'The facts behind the card; keys depend on kind.' }),
    createdAt: DateTime,
  })
  .meta({
    id: 'Insight',
    description: 'An insight card, pulled from the insights routes (never pushed).',
  });

export const InsightList = listOf(Insight, 'InsightList', 'Insight cards, newest first.');

const insightBody = ({ insightId, data, ...insight }: InsightFieldsFragment) => ({
  id: insightId,
  ...insight,
  kind: fromGraphqlEnum(insight.kind),
  data: data as Record<string, unknown>,
});

const insightQuery = z.strictObject({
  kind: enumParam(INSIGHT_KINDS).optional().meta({ description: 'Only this kind.' }),
  ...paginationParams(),
});

const INSIGHT_RULES =
  "Insights are computed at each probe and pulled here, never pushed. restock: a tracked variant's stock rose since " +
  "its previous snapshot. price_change: its price changed. sales_spike: the probe's UTC day reached at least " +
  `${SPIKE_MIN_UNITS} estimated units and ${SPIKE_FACTOR}x the median of the previous ${SPIKE_TRAILING_DAYS} days with an ` +
  `estimate (at least ${SPIKE_MIN_TRAILING_DAYS} of them); one per day. ad_new_campaign: new creatives seen by an ads ` +
  'probe. app_change: an app installed or removed, seen after a probe. Newest first.';

export const listSignalInsights = defineRoute({
  operationId: 'listSignalInsights',
  method: 'GET',
  path: '/v1/signals/{domain}/insights',
  tag: 'Signals',
  summary: "A watch's insight cards",
  description: `${INSIGHT_RULES} ${SCOPE}${PARTNER_READ}`,
  document: ListSignalInsightsDocument,
  pathParams: watchPath,
  query: insightQuery,
  canBeNotFound: true,
  variables: (p) => ({
    domain: p.domain,
    kind: p.kind && toGraphqlEnum(p.kind),
    ...connectionArgs(p),
  }),
  response: InsightList,
  respond: (data, p) => {
    const page = listEnvelope(data.signal.insights, p);
    return { ...page, data: page.data.map(insightBody) };
  },
  example: `/v1/signals/${STORE}/insights?kind=restock`,
});

export const listInsightInbox = defineRoute({
  operationId: 'listInsightInbox',
  method: 'GET',
  path: '/v1/signals/insights',
  tag: 'Signals',
  summary: 'The insight inbox across all watches',
  description: `Insight cards of every watch of the key's account, each naming its domain. ${INSIGHT_RULES}`,
  document: ListInsightInboxDocument,
  pathParams: noPathParams,
  query: insightQuery,
  canBeNotFound: false,
  variables: (p) => ({ kind: p.kind && toGraphqlEnum(p.kind), ...connectionArgs(p) }),
  response: InsightList,
  respond: (data, p) => {
    const page = listEnvelope(data.signalInsights, p);
    return { ...page, data: page.data.map(insightBody) };
  },
  example: '/v1/signals/insights?kind=sales_spike',
});

/** The inbox route (/v1/signals/insights), in the order docs.md and the OpenAPI description list it. */
export const insightInboxRoutes: readonly RestRoute[] = [listInsightInbox];

/** One watch's insight routes, in the order docs.md and the OpenAPI description list them. */
export const watchInsightRoutes: readonly RestRoute[] = [listSignalInsights];
