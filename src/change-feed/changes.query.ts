// Query.productChanges (GET /v1/products/changes) and Query.changes (GET /v1/changes).
import type { DefaultConnectionArguments } from '@pothos/plugin-relay';
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { offsetConnection } from '../graphql/pagination.ts';
import { domainSchema } from '../stores/domain.ts';
import { countChanges, findChanges, type ChangeQuery } from './change.sql.ts';
import {
  ChangeConnection,
  ChangeEntityEnum,
  ChangeTypeEnum,
  PRODUCT_CHANGE_TYPE_NAMES,
  productChangeTypes,
} from './change.type.ts';
import { rules } from '../access/field-rules.ts';
import { OrderDirectionEnum } from '../graphql/order.ts';

const ChangeOrderFieldEnum = builder.enumType('ChangeOrderField', {
  description: 'What orderBy orders a change feed by.',
  values: {
    DETECTED_AT: {
      value: 'detectedAt',
      description: 'When the change was detected (DESC: newest first), then the change id.',
    },
  } as const,
});

export const ChangeOrder = builder.inputType('ChangeOrder', {
  description: 'The order of a change feed: a field and a direction.',
  fields: (t) => ({
    field: t.field({
      type: ChangeOrderFieldEnum,
      required: true,
      description: 'What to order by.',
    }),
    direction: t.field({
      type: OrderDirectionEnum,
      defaultValue: 'desc',
      description: 'DESC (default): newest first; ASC: oldest first.',
    }),
  }),
});

const ProductChangeFilter = builder.inputType('ProductChangeFilter', {
  description: 'Narrows the product change feed; all given conditions must hold.',
  fields: (t) => ({
    changeType: t.field({
      type: ChangeTypeEnum,
      description: `Only this kind, a product change: ${PRODUCT_CHANGE_TYPE_NAMES} (another is bad_request).`,
    }),
    minPriceChangePct: t.float({
      description: 'Absolute price change of at least this many percent (either direction).',
      validate: { type: 'number', min: [0, { message: 'must not be negative' }] },
    }),
    since: t.field({ type: 'Date', description: 'Detected on or after this day (UTC).' }),
    domain: t.string({
      description: "Only this store's changes (a domain or URL).",
      validate: { schema: domainSchema },
    }),
  }),
});

const ChangeFilter = builder.inputType('ChangeFilter', {
  description: 'Narrows the change feed; all given conditions must hold.',
  fields: (t) => ({
    entity: t.field({ type: ChangeEntityEnum, description: 'Only changes of this entity.' }),
    domain: t.string({
      description: "Only this store's changes (a domain or URL).",
      validate: { schema: domainSchema },
    }),
    since: t.field({ type: 'Date', description: 'Detected on or after this day (UTC).' }),
    changeType: t.field({
      type: ChangeTypeEnum,
      description: 'Only changes of this type (see ChangeType).',
    }),
  }),
});

export function changeConnection(
  args: DefaultConnectionArguments,
  ctx: Parameters<typeof findChanges>[0],
  query: ChangeQuery,
) {
  return offsetConnection(
    args,
    (window) => findChanges(ctx, query, window),
    () => countChanges(ctx, query),
  );
}

builder.queryField('productChanges', (t) =>
  t.field({
    extensions: rules({ quota: 'productSearches', cache: 'public' }),
    type: ChangeConnection,
    description: 'Price changes, new and removed SKUs, newest first unless orderBy says otherwise.',
    args: {
      ...pageArgs,
      filter: t.arg({ type: ProductChangeFilter, description: 'Omit for every product change.' }),
      orderBy: t.arg({
        type: ChangeOrder,
        description: 'The order (default: DETECTED_AT DESC, newest first).',
      }),
    },
    resolve: (_root, { filter, orderBy, ...args }, ctx) =>
      changeConnection(args, ctx.services.db.read, {
        entity: 'product',
        changeTypes: productChangeTypes(filter?.changeType, 'changeType'),
        domain: filter?.domain,
        since: filter?.since,
        minChangePct: filter?.minPriceChangePct,
        direction: orderBy?.direction ?? 'desc',
      }),
  }),
);

builder.queryField('changes', (t) =>
  t.field({
    extensions: rules({ quota: 'productSearches', cache: 'public' }),
    type: ChangeConnection,
    description:
      'One feed of product, app and store changes, newest first unless orderBy says otherwise.',
    args: {
      ...pageArgs,
      filter: t.arg({ type: ChangeFilter, description: 'Omit for every change of the catalog.' }),
      orderBy: t.arg({
        type: ChangeOrder,
        description: 'The order (default: DETECTED_AT DESC, newest first).',
      }),
    },
    resolve: (_root, { filter, orderBy, ...args }, ctx) =>
      changeConnection(args, ctx.services.db.read, {
        entity: filter?.entity,
        changeTypes: filter?.changeType ? [filter.changeType] : null,
        domain: filter?.domain,
        since: filter?.since,
        direction: orderBy?.direction ?? 'desc',
      }),
  }),
);
