// Discovery candidates (catalog_candidates): domains offered to the catalog by an import, a link on
// a store's page or a store's new host. Every domain is canonicalised at the door with the API's
// own domain rules (stores/domain.ts: no scheme, port, path or userinfo, www. folded, lower case)
// and refused when it is not a public DNS name (an IP literal, a name without a dot) or is
// synthetic (.example). A domain is offered once (its first source is kept; a nearer link lowers
// its depth while it waits); one the catalog already holds is never offered. The scheduler
// validates pending candidates as storefronts, within discovery's budgets (src/crawler).
import type { Queryable } from '../platform/jobs/job-queue.ts';
import { isSyntheticDomain, parseDomain } from '../stores/domain.ts';
import { registrableDomain } from '../stores/registrable-domain.ts';

export type CandidateSource = 'import' | 'link' | 'moved';

/** The canonical domain of a candidate as offered (a host, host:port, or URL), or null when it is refused. */
export function canonicalCandidate(offered: string): string | null {
  const parsed = parseDomain(offered);
  return parsed.ok && !isSyntheticDomain(parsed.domain) ? parsed.domain : null;
}

/** Offers domains as pending candidates; returns how many were new. */
export async function offerCandidates(
  db: Queryable,
  domains: readonly string[],
  offer: { source: CandidateSource; foundOn: string | null; now: Date },
): Promise<number> {
  const canonical = [
    ...new Set(domains.map(canonicalCandidate).filter((d): d is string => d !== null)),
  ];
  if (canonical.length === 0) return 0;
  // a link is one step further than the store it was found on; an import starts at 0, a new host keeps its store's depth
  const step = offer.source === 'link' ? 1 : 0;
  const { rows } = await db.query<{ inserted: boolean }>(
    `INSERT INTO catalog_candidates AS c (domain, source, found_on, status, next_at, created_at, updated_at, depth, registrable_domain)
     SELECT d.domain, $2, $3, 'pending', $4, $4, $4,
            CASE WHEN $2 = 'import' THEN 0 ELSE COALESCE((SELECT f.depth FROM catalog_candidates f WHERE f.domain = $3), 0) + $6 END,
            d.registrable
       FROM unnest($1::text[], $5::text[]) AS d(domain, registrable)
      WHERE NOT EXISTS (SELECT 1 FROM stores s WHERE s.domain = d.domain)
     ON CONFLICT (domain) DO UPDATE SET depth = excluded.depth
      WHERE c.status = 'pending' AND excluded.depth < c.depth
     RETURNING (xmax = 0) AS inserted`,
    [canonical, offer.source, offer.foundOn, offer.now, canonical.map(registrableDomain), step],
  );
  return rows.filter((r) => r.inserted).length;
}
