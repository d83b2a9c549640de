// The creatives on record for a watched store (GET /v1/signals/{domain}/ads, Signal.ads): newest
// first (first seen, then id), optionally one network's. Creatives belong to the store, so every
// watch of it (and a partner key) sees the same list.
import { queryRows, type Queryable } from '../../platform/database/sql.ts';
import type { Window } from '../../graphql/pagination.ts';
import type { GraphqlContext } from '../../graphql/context.ts';
import { ownerAccountId } from '../../access/account-owner.ts';
import { isPartner } from '../signal-owner.ts';
import type { AdNetwork } from './ad-library.ts';

export interface AdCreative {
  id: number;
  network: AdNetwork;
  externalId: string;
  headline: string | null;
  body: string | null;
  mediaUrl: string | null;
  landingUrl: string | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
  active: boolean;
}

const COLUMNS = `id, network, external_id AS "externalId", headline, body, media_url AS "mediaUrl", landing_url AS "landingUrl",
  first_seen_at AS "firstSeenAt", last_seen_at AS "lastSeenAt", active`;

export function adCreativesPage(
  pool: Queryable,
  storeId: number,
  network: AdNetwork | null,
  window: Window,
): Promise<AdCreative[]> {
  return queryRows<AdCreative>(
    pool,
    `SELECT ${COLUMNS} FROM ads WHERE store_id = $1 AND ($2::text IS NULL OR network = $2)
      ORDER BY first_seen_at DESC, id DESC LIMIT $3 OFFSET $4`,
    [storeId, network, window.limit, window.offset],
  );
}

export async function countAdCreatives(
  pool: Queryable,
  storeId: number,
  network: AdNetwork | null,
): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    pool,
    'SELECT count(*)::int AS n FROM ads WHERE store_id = $1 AND ($2::text IS NULL OR network = $2)',
    [storeId, network],
  );
  return row?.n ?? 0;
}

/**
 * Creatives by id (node lookups), in the order asked, as Signal.ads shows them: a creative of a
 * store the key's account watches (a partner key: of any store on Signals); null otherwise.
 */
export async function adCreativesByIds(
  ctx: GraphqlContext,
  ids: readonly number[],
): Promise<Array<AdCreative | null>> {
  const rows = await queryRows<AdCreative>(
    ctx.services.db.pool,
    `SELECT ${COLUMNS} FROM ads a
      WHERE a.id = ANY($1::int[])
        AND EXISTS (SELECT 1 FROM signals w WHERE w.store_id = a.store_id AND ($3 OR w.account_id = $2))`,
    [ids.filter((id) => Number.isSafeInteger(id)), await ownerAccountId(ctx), isPartner(ctx)],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}
