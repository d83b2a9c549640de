// Discovery candidates (catalog_candidates): domains offered to the catalog by an import, a link on
// a store's page or a store's new host. A domain is offered once (its first source is kept); one
// the catalog already holds, or a synthetic (.example) one, is never offered. The scheduler
// validates pending candidates as storefronts (src/catalog/discovery).
import type { Queryable } from '../platform/jobs/job-queue.ts';
import { isSyntheticDomain } from '../stores/domain.ts';

export type CandidateSource = 'import' | 'link' | 'moved';

/** Offers canonical domains as pending candidates; returns how many were new. */
export async function offerCandidates(
  db: Queryable,
  domains: readonly string[],
  offer: { source: CandidateSource; foundOn: string | null; now: Date },
): Promise<number> {
  const real = domains.filter((domain) => !isSyntheticDomain(domain));
  if (real.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO catalog_candidates (domain, source, found_on, status, next_at, created_at, updated_at)
     SELECT d, $2, $3, 'pending', $4, $4, $4 FROM unnest($1::text[]) AS d
      WHERE NOT EXISTS (SELECT 1 FROM stores s WHERE s.domain = d)
     ON CONFLICT (domain) DO NOTHING`,
    [real, offer.source, offer.foundOn, offer.now],
  );
  return rowCount ?? 0;
}
