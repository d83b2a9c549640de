// Insight cards (pulled, never pushed): Signal.insights per watch and Query.signalInsights, the
// account-wide inbox across every watch of the key's account. Newest first, filtered by kind.
import { builder } from '../../graphql/builder.ts';
import { upperCaseValues } from '../../graphql/enums.ts';
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
    "SALES_SPIKE: a day's estimated units reached 2x the trailing median. RESTOCK: a tracked variant's stock rose. " +
    "PRICE_CHANGE: a tracked variant's price changed. AD_NEW_CAMPAIGN: a new ad creative was seen. APP_CHANGE: an app was installed or removed. " +
    'REST spells each in lower case.',
  values: upperCaseValues(INSIGHT_KINDS, {
    sales_spike: "A day's estimated units reached 2x the trailing median.",
    restock: "A tracked variant's stock rose.",
    price_change: "A tracked variant's price changed.",
    ad_new_campaign: 'A new ad creative of the store was seen.',
    app_change: 'An app was installed on or removed from the store.',
  }),
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
    kind: t.field({
      type: InsightKindEnum,
      description: 'What the card is about; it decides the keys of data.',
      resolve: (i) => i.kind as InsightKind,
    }),
    title: t.exposeString('title', { description: 'A short English headline for the card.' }),
    body: t.exposeString('body', { description: 'One or two English sentences with the figures.' }),
    data: t.field({
      type: 'JSON',
      description:
        'The facts behind the card: a JSON object whose keys depend on kind (as REST shows it).',
      resolve: (i) => i.data ?? {},
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the card was made.' }),
  }),
});

const InsightConnection = builder.connectionObject(
  {
    type: InsightRef,
    name: 'InsightConnection',
    description: 'A page of insight cards, newest first.',
  },
  { name: 'InsightEdge', description: 'One insight card, with its cursor.' },
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
