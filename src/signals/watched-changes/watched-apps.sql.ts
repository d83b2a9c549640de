// The app stack of watched stores, with when each app was first and last seen on the storefront.
import DataLoader from 'dataloader';
import { APP_COLUMNS, type AppRecord } from '../../apps/app.sql.ts';
import { defineLoader } from '../../graphql/context.ts';
import { queryRows } from '../../platform/database/sql.ts';

export interface WatchedAppRow extends AppRecord {
  storeId: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

/** Each store's installed apps, most recently installed first (one query per request for any number of watches). */
export const watchedAppsByStoreId = defineLoader(
  (ctx) =>
    new DataLoader<number, WatchedAppRow[]>(async (storeIds) => {
      const rows = await queryRows<WatchedAppRow>(
        ctx.services.db.pool,
        `SELECT ${APP_COLUMNS}, sa.store_id AS "storeId", sa.first_seen_at AS "firstSeenAt", sa.last_seen_at AS "lastSeenAt"
           FROM store_apps sa JOIN apps a ON a.id = sa.app_id
          WHERE sa.store_id = ANY($1::int[])
          ORDER BY sa.first_seen_at DESC, a.slug`,
        [[...storeIds]],
      );
      const byStore = new Map<number, WatchedAppRow[]>();
      for (const row of rows) byStore.set(row.storeId, [...(byStore.get(row.storeId) ?? []), row]);
      return storeIds.map((id) => byStore.get(id) ?? []);
    }),
);
