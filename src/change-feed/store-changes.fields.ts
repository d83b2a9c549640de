// Store.changes: the store's own change feed (what Query.changes gives with filter.domain), newest first.
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { StoreRef } from '../stores/store.ref.ts';
import { ChangeOrder, changeConnection } from './changes.query.ts';
import { ChangeConnection, ChangeEntityEnum } from './change.type.ts';

builder.objectField(StoreRef, 'changes', (t) =>
  t.field({
    type: ChangeConnection,
    description:
      "This store's product, app and store changes, newest first: Query.changes with filter.domain, without another root call.",
    args: {
      ...pageArgs,
      entity: t.arg({
        type: ChangeEntityEnum,
        description: 'Only changes about products, apps or the store itself.',
      }),
      since: t.arg({ type: 'Date', description: 'Detected on or after this day (UTC).' }),
      orderBy: t.arg({
        type: ChangeOrder,
        description: 'The order (default: DETECTED_AT DESC, newest first).',
      }),
    },
    resolve: (store, { entity, since, orderBy, ...args }, ctx) =>
      changeConnection(args, ctx.services.db.read, {
        entity: entity ?? undefined,
        changeTypes: null,
        domain: store.domain,
        since: since ?? undefined,
        direction: orderBy?.direction ?? 'desc',
      }),
  }),
);
