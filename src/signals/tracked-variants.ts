// The variants a watch follows. A product is tracked before its variants are known: it gets one
// pending row (variant_id "pending:<handle>") that the next probe replaces with the product's real
// variants, read from the storefront. Variants of products dropped from the set stay, inactive,
// with their history.
import type { Queryable } from '../platform/jobs/job-queue.ts';

export const PENDING_PREFIX = 'pending:';
export const isPending = (variantId: string) => variantId.startsWith(PENDING_PREFIX);

export interface TrackedVariantRecord {
  id: number;
  productHandle: string;
  /** the storefront's variant id; null until the first probe has read the product */
  variantId: string | null;
  sku: string | null;
  title: string;
  active: boolean;
}

/** Tracks `products` (every variant of each): reactivates known variants, adds a pending row for unknown products. */
export async function trackProducts(
  db: Queryable,
  signalId: number,
  products: ReadonlyArray<{ handle: string; title: string }>,
  now: Date,
): Promise<void> {
  if (products.length === 0) return;
  await db.query(
    `UPDATE tracked_variants SET active = true WHERE signal_id = $1 AND product_handle = ANY($2::text[])`,
    [signalId, products.map((p) => p.handle)],
  );
  await db.query(
    `INSERT INTO tracked_variants (signal_id, product_handle, variant_id, title, active, created_at)
     SELECT $1, p.handle, $3 || p.handle, p.title, true, $4
       FROM jsonb_to_recordset($2::jsonb) AS p(handle text, title text)
      WHERE NOT EXISTS (SELECT 1 FROM tracked_variants v WHERE v.signal_id = $1 AND v.product_handle = p.handle)`,
    [signalId, JSON.stringify(products), PENDING_PREFIX, now],
  );
}

export async function trackedVariants(
  db: Queryable,
  signalId: number,
): Promise<TrackedVariantRecord[]> {
  const { rows } = await db.query<Omit<TrackedVariantRecord, 'variantId'> & { variantId: string }>(
    `SELECT id, product_handle AS "productHandle", variant_id AS "variantId", sku, title, active
       FROM tracked_variants WHERE signal_id = $1 ORDER BY active DESC, product_handle, id`,
    [signalId],
  );
  return rows.map((row) => ({
    ...row,
    variantId: isPending(row.variantId) ? null : row.variantId,
  }));
}
