// App slugs of the store filters (app, anyApp, notApp) as app ids. The statements then compare
// store_apps.app_id with plain numbers, so PostgreSQL plans each app with its own install count
// from the column statistics (a subquery by slug would be planned for an average app: a walk of
// the visits index that a rare app's few stores leave unfilled). An app's id never changes, so
// known slugs are kept per pool for the process's life; an unknown slug is looked up every time
// (one unique-index probe), so an app added later is found at once.
import { queryRows, type Queryable } from '../platform/database/sql.ts';

const known = new WeakMap<Queryable, Map<string, number>>();

/** The ids of the slugs the catalog has; slugs it does not have are absent from the map. */
export async function appIdsBySlug(
  pool: Queryable,
  slugs: readonly string[],
): Promise<Map<string, number>> {
  let cache = known.get(pool);
  if (!cache) {
    cache = new Map();
    known.set(pool, cache);
  }
  const missing = [...new Set(slugs.filter((slug) => !cache.has(slug)))];
  if (missing.length > 0) {
    const rows = await queryRows<{ id: number; slug: string }>(
      pool,
      `SELECT id, slug FROM apps WHERE slug = ANY($1::text[])`,
      [missing],
    );
    for (const { id, slug } of rows) cache.set(slug, id);
  }
  const found = new Map<string, number>();
  for (const slug of slugs) {
    const id = cache.get(slug);
    if (id !== undefined) found.set(slug, id);
  }
  return found;
}
