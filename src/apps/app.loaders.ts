// Per-request app loaders: by id (node), by slug, a store's app stack.
import DataLoader from 'dataloader';
import { defineLoader } from '../graphql/context.ts';
import { guardDb, keyedRead, queryByKeys } from '../platform/database/sql.ts';
import { APP_COLUMNS, type AppRecord } from './app.sql.ts';

export const appById = defineLoader(
  (ctx) =>
    new DataLoader<number, AppRecord | null>(async (ids) => {
      const apps = await guardDb(
        ctx.services.db.prisma.app.findMany({ where: { id: { in: [...ids] } } }),
      );
      const byId = new Map(apps.map((a) => [a.id, a]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
);

export const appBySlug = defineLoader(
  (ctx) =>
    new DataLoader<string, AppRecord | null>(async (slugs) => {
      const apps = await guardDb(
        ctx.services.db.prisma.app.findMany({ where: { slug: { in: [...slugs] } } }),
      );
      const bySlug = new Map(apps.map((a) => [a.slug, a]));
      return slugs.map((slug) => bySlug.get(slug) ?? null);
    }),
);

const APPS_BY_STORE = keyedRead(
  'sa.store_id',
  'int',
  (
    keys,
  ) => `SELECT sa.store_id AS "storeId", ${APP_COLUMNS} FROM store_apps sa JOIN apps a ON a.id = sa.app_id
    WHERE ${keys} ORDER BY sa.store_id, a.install_count DESC, a.name ASC`,
);

/** Each store's installed apps (the whole stack), most installed first: one join, one statement. */
export const appsByStoreId = defineLoader(
  (ctx) =>
    new DataLoader<number, AppRecord[]>(async (storeIds) => {
      const rows = await queryByKeys<AppRecord & { storeId: number }>(
        ctx.services.db.read,
        APPS_BY_STORE,
        storeIds,
        'apps-by-store',
      );
      const byStore = new Map<number, AppRecord[]>();
      for (const { storeId, ...app } of rows) {
        const list = byStore.get(storeId) ?? [];
        list.push(app);
        byStore.set(storeId, list);
      }
      return storeIds.map((id) => byStore.get(id) ?? []);
    }),
);
