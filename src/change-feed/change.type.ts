// Change: one diff between two observations of a store (a product, an app or the store itself).
import { builder } from '../graphql/builder.ts';
import { upperCaseValues } from '../graphql/enums.ts';
import { rules } from '../access/field-rules.ts';
import { badRequest } from '../platform/errors.ts';
import {
  CHANGE_ENTITIES,
  CHANGE_TYPE_DESCRIPTIONS,
  CHANGE_TYPES,
  changesByIds,
  PRODUCT_CHANGE_TYPES,
  type ChangeType,
  type ChangeRecordRow,
} from './change.sql.ts';

export const ChangeEntityEnum = builder.enumType('ChangeEntity', {
  description: 'What a change is about: a product, an app of the store, or the store itself.',
  values: upperCaseValues(CHANGE_ENTITIES, {
    product: 'A product of the store (prices, SKUs).',
    app: 'An app installed on or removed from the store.',
    store: 'The store itself (theme, revenue band, domain).',
  }),
});

export const ChangeTypeEnum = builder.enumType('ChangeType', {
  description:
    'What changed. Product: PRICE_DECREASE, PRICE_INCREASE, NEW_SKU, REMOVED_SKU; app: APP_INSTALLED, APP_UNINSTALLED; store: THEME_CHANGED, REVENUE_BAND_CHANGED, DOMAIN_CHANGED. REST spells each in lower case (price_decrease).',
  values: upperCaseValues(CHANGE_TYPES, CHANGE_TYPE_DESCRIPTIONS),
});

export const PRODUCT_CHANGE_TYPE_NAMES = PRODUCT_CHANGE_TYPES.map((c) => c.toUpperCase()).join(
  ', ',
);

/** The product change types a product feed reads: the one asked (a product change type, or bad_request naming `parameter`), or all. */
export function productChangeTypes(
  asked: ChangeType | null | undefined,
  parameter: string,
): readonly ChangeType[] {
  if (!asked) return PRODUCT_CHANGE_TYPES;
  if ((PRODUCT_CHANGE_TYPES as readonly ChangeType[]).includes(asked)) return [asked];
  const rule = `must be a product change type: ${PRODUCT_CHANGE_TYPE_NAMES}`;
  throw badRequest(`Invalid ${parameter}: ${rule}`, { parameter, rule });
}

export const ChangeRef = builder.objectRef<ChangeRecordRow>('Change');

export const ChangeConnection = builder.connectionObject(
  {
    type: ChangeRef,
    name: 'ChangeConnection',
    description: 'A page of changes, newest first, with the total across pages.',
  },
  { name: 'ChangeEdge', description: 'One change in a page of changes, with its cursor.' },
);

builder.node(ChangeRef, {
  // a node(id) lookup of this type counts as a read of the change feed
  extensions: rules({ quota: 'productSearches' }),
  description: 'A diff between two observations (scrapes), not a complete event stream.',
  id: { resolve: (c) => c.id, parse: (id) => Number(id) },
  loadMany: (ids, ctx) => changesByIds(ctx.services.db.read, ids),
  fields: (t) => ({
    changeId: t.string({
      description:
        "The change record's own number, as REST's `id` shows it (id is the global Node id).",
      resolve: (c) => String(c.id),
    }),
    entity: t.field({
      type: ChangeEntityEnum,
      description: 'Whether a product, an app or the store itself changed.',
      resolve: (c) => c.entity,
    }),
    changeType: t.field({
      type: ChangeTypeEnum,
      description: 'What changed; its values are described on ChangeType.',
      resolve: (c) => c.changeType,
    }),
    domain: t.exposeString('domain', { description: "The store's canonical domain." }),
    subject: t.exposeString('subject', {
      nullable: true,
      description: 'Product handle or app slug; null for store-level changes.',
    }),
    summary: t.exposeString('summary', {
      description:
        'One English sentence for display, e.g. Price of "Tee" dropped 20.0% from $25.00 to $20.00.',
    }),
    oldValue: t.exposeString('oldValue', {
      nullable: true,
      description:
        'The value before, as text: a price with two decimals, an app slug, a theme name; null for something new (new_sku, app_installed).',
    }),
    newValue: t.exposeString('newValue', {
      nullable: true,
      description:
        'The value after, in the same form as oldValue; null for something gone (removed_sku, app_uninstalled).',
    }),
    changePct: t.exposeFloat('changePct', {
      nullable: true,
      description: 'Signed percent change (prices and metrics).',
    }),
    currency: t.exposeString('currency', {
      nullable: true,
      description:
        "ISO 4217 currency of a product change's oldValue and newValue (prices): the store's own. Null for app and store changes.",
    }),
    detectedAt: t.expose('detectedAt', {
      type: 'DateTime',
      description: 'When the observation that saw the change ran (not when the merchant made it).',
    }),
  }),
});
