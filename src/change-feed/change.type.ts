// Change: one diff between two observations of a store (a product, an app or the store itself).
import { builder } from '../graphql/builder.ts';
import { describedValues } from '../graphql/enum-values.ts';
import { CHANGE_ENTITIES, type ChangeRecordRow } from './change.sql.ts';

export const ChangeEntityEnum = builder.enumType('ChangeEntity', {
  description: 'What a change is about (REST entity).',
  values: describedValues(CHANGE_ENTITIES, {
    product: 'A product of the store: a price change, a new or a removed SKU.',
    app: 'An app on the store: installed or uninstalled.',
    store: 'The store itself, e.g. its theme.',
  }),
});

export const ChangeRef = builder.objectRef<ChangeRecordRow>('Change');

export const ChangeConnection = builder.connectionObject(
  {
    type: ChangeRef,
    name: 'ChangeConnection',
    description: 'A page of changes, newest first, with the total across pages.',
  },
  { name: 'ChangeEdge', description: 'One change in a page of changes, with its cursor.' },
);

ChangeRef.implement({
  description: 'A diff between two observations (scrapes), not a complete event stream.',
  fields: (t) => ({
    id: t.id({
      description: "The change's id, stable across requests (the REST feed's id).",
      resolve: (c) => String(c.id),
    }),
    entity: t.field({
      type: ChangeEntityEnum,
      description: 'Whether a product, an app or the store itself changed.',
      resolve: (c) => c.entity,
    }),
    changeType: t.exposeString('changeType', {
      description:
        'product: price_increase, price_decrease, new_sku, removed_sku; app: app_installed, app_uninstalled; store: e.g. theme_changed.',
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
