// The creatives on record for a watched store (GET /v1/signals/{domain}/ads, Signal.ads): newest
// first (first seen, then id), optionally one network's. Creatives belong to the store, so every
// watch of it (and a partner key) sees the same list.
import { queryRows, type Queryable } from '../../platform/database/sql.ts';
import type { Window } from '../../graphql/pagination.ts';
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
