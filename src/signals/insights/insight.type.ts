// Insight cards (pulled, never pushed): Signal.insights per watch and Query.signalInsights, the
// account-wide inbox across every watch of the key's account. Newest first, filtered by kind.
import { builder } from '../../graphql/builder.ts';
import type { GraphqlContext } from '../../graphql/context.ts';
import { pageArgs } from '../../graphql/page-args.ts';
import { offsetConnection } from '../../graphql/pagination.ts';
import { SignalRef } from '../signal.ref.ts';
import { ownerAccountId } from '../../access/account-owner.ts';
import { INSIGHT_KINDS, type InsightKind } from './insight-rules.ts';
import {
  countInsights,
  insightsByIds,
  listInsights,
  type InsightFilter,
  type InsightRecord,
} from './insight-store.ts';

const InsightKindEnum = builder.enumType('InsightKind', {
  description:
    "sales_spike: a day's estimated units reached 2x the trailing median. restock: a tracked variant's stock rose. " +
    "price_change: a tracked variant's price changed. ad_new_campaign: a new ad creative was seen. app_change: an app was installed or removed.",
  values: INSIGHT_KINDS,
});

const InsightRef = builder.objectRef<InsightRecord>('Insight');

builder.node(InsightRef, {
  description: 'An insight card on a watched store.',
  id: { resolve: (i) => i.id, parse: (id) => Number(id) },
  // as Query.signalInsights: the cards of the key's own account
  loadMany: async (ids, ctx) => insightsByIds(ctx.services.db.pool, ids, await ownerAccountId(ctx)),
  fields: (t) => ({
    insightId: t.exposeInt('id', {
      description: "The card's own number, as REST's `id` shows it (id is the global Node id).",
    }),
    domain: t.exposeString('domain', { description: 'The watched store.' }),
    kind: t.field({ type: InsightKindEnum, resolve: (i) => i.kind as InsightKind }),
    title: t.exposeString('title'),
    body: t.exposeString('body'),
    data: t.field({
      type: 'JSON',
      description:
        'The facts behind the card: a JSON object whose keys depend on kind (as REST shows it).',
      resolve: (i) => i.data ?? {},
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const InsightConnection = builder.connectionObject(
  { type: InsightRef, name: 'InsightConnection' },
  { name: 'InsightEdge' },
);

const insightArgs = builder.args((t) => ({
  ...pageArgs,
  kind: t.field({ type: InsightKindEnum, description: 'Only this kind.' }),
}));

function insightConnection(
  ctx: GraphqlContext,
  filter: InsightFilter,
  args: { first?: number | null; after?: string | null },
) {
  const pool = ctx.services.db.pool;
  return offsetConnection(
    args,
    (window) => listInsights(pool, filter, window),
    () => countInsights(pool, filter),
  );
}

builder.objectField(SignalRef, 'insights', (t) =>
  t.field({
    type: InsightConnection,
    description: "This watch's insight cards, newest first.",
    args: insightArgs,
    resolve: (w, { kind, ...args }, ctx) =>
      insightConnection(ctx, { signalId: w.id, accountId: w.accountId, kind: kind ?? null }, args),
  }),
);

builder.queryField('signalInsights', (t) =>
  t.field({
    type: InsightConnection,
    description: "The inbox: insight cards of every watch of the key's account, newest first.",
    args: insightArgs,
    resolve: async (_root, { kind, ...args }, ctx) =>
      insightConnection(
        ctx,
        { signalId: null, accountId: await ownerAccountId(ctx), kind: kind ?? null },
        args,
      ),
  }),
);
