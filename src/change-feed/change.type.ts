// Change: one diff between two observations of a store (a product, an app or the store itself).
import { builder } from '../graphql/builder.ts';
import { CHANGE_ENTITIES, type ChangeRecordRow } from './change.sql.ts';

export const ChangeEntityEnum = builder.enumType('ChangeEntity', { values: CHANGE_ENTITIES });

export const ChangeRef = builder.objectRef<ChangeRecordRow>('Change');

export const ChangeConnection = builder.connectionObject(
  { type: ChangeRef, name: 'ChangeConnection' },
  { name: 'ChangeEdge' },
);

ChangeRef.implement({
  description: 'A diff between two observations (scrapes), not a complete event stream.',
  fields: (t) => ({
    id: t.id({ resolve: (c) => String(c.id) }),
    entity: t.field({ type: ChangeEntityEnum, resolve: (c) => c.entity }),
    changeType: t.exposeString('changeType', {
      description:
        'product: price_increase, price_decrease, new_sku, removed_sku; app: app_installed, app_uninstalled; store: e.g. theme_changed.',
    }),
    domain: t.exposeString('domain'),
    subject: t.exposeString('subject', {
      nullable: true,
      description: 'Product handle or app slug; null for store-level changes.',
    }),
    summary: t.exposeString('summary'),
    oldValue: t.exposeString('oldValue', { nullable: true }),
    newValue: t.exposeString('newValue', { nullable: true }),
    changePct: t.exposeFloat('changePct', {
      nullable: true,
      description: 'Signed percent change (prices and metrics).',
    }),
    currency: t.exposeString('currency', {
      nullable: true,
      description:
        "ISO 4217 currency of a product change's oldValue and newValue (prices): the store's own. Null for app and store changes.",
    }),
    detectedAt: t.expose('detectedAt', { type: 'DateTime' }),
  }),
});
