// The one way a Signals route finds its watch from the path's {domain} (the contract's {id}): a domain (bare or URL) or the
// store's legacy id (24 hex characters). The caller's own watch, or not_found — another account's
// watch is indistinguishable from none. A partner key (signals:read) reads any domain already on
// Signals: it gets the oldest watch of that store, whose snapshot history is the longest.
import type { GraphqlContext } from '../graphql/context.ts';
import { guardDb, queryRows } from '../platform/database/sql.ts';
import { notFound } from '../platform/errors.ts';
import { normalizeDomain } from '../stores/domain.ts';
import { assertMayWrite, isPartner } from './signal-owner.ts';
import { ownerAccountId } from '../access/account-owner.ts';
import { WATCH_COLUMNS, type WatchRecord } from './watch-record.ts';

const LEGACY_ID = /^[0-9a-f]{24}$/i;

/** How a path's {domain} names a store: its legacy id, or its canonical domain (bad_request naming `domain` otherwise). */
export function watchKey(id: string): { legacyId: string } | { domain: string } {
  const trimmed = id.trim();
  return LEGACY_ID.test(trimmed)
    ? { legacyId: trimmed.toLowerCase() }
    : { domain: normalizeDomain(trimmed, 'domain') };
}

export async function findWatch(
  ctx: GraphqlContext,
  id: string,
  access: 'read' | 'write',
): Promise<WatchRecord> {
  if (access === 'write') assertMayWrite(ctx);
  const key = watchKey(id);
  const byStore = 'legacyId' in key ? 's.legacy_id = $1' : 's.domain = $1';
  const value = 'legacyId' in key ? key.legacyId : key.domain;
  const partnerRead = access === 'read' && isPartner(ctx);
  const owner = partnerRead ? null : await ownerAccountId(ctx);
  const rows = await guardDb(
    queryRows<WatchRecord>(
      ctx.services.db.pool,
      `SELECT ${WATCH_COLUMNS} FROM signals w JOIN stores s ON s.id = w.store_id
        WHERE ${byStore} ${owner === null ? '' : 'AND w.account_id = $2'}
        ORDER BY w.created_at, w.id LIMIT 1`,
      owner === null ? [value] : [value, owner],
    ),
  );
  const watch = rows[0];
  if (!watch) throw notFound(`No watch on ${value} for this key's account.`, { domain: id });
  return watch;
}

/**
 * Watches by id (node lookups), in the order asked, with Query.signal's access: the caller's own
 * account's watches; a partner key reads, of each store, the watch it would find by domain (the
 * oldest). Any other id is null, as a missing one is.
 */
export async function watchesByIds(
  ctx: GraphqlContext,
  ids: readonly number[],
): Promise<Array<WatchRecord | null>> {
  const wanted = ids.filter((id) => Number.isSafeInteger(id));
  if (wanted.length === 0) return ids.map(() => null);
  const partner = isPartner(ctx);
  const owner = await ownerAccountId(ctx);
  const rows = await guardDb(
    queryRows<WatchRecord>(
      ctx.services.db.pool,
      `SELECT ${WATCH_COLUMNS} FROM signals w JOIN stores s ON s.id = w.store_id
        WHERE w.id = ANY($1::int[])
          AND (w.account_id = $2 OR ($3 AND w.id = (SELECT o.id FROM signals o WHERE o.store_id = w.store_id
                                                    ORDER BY o.created_at, o.id LIMIT 1)))`,
      [wanted, owner, partner],
    ),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}
