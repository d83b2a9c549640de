// The labelled store search queries of the relevance suite: each query with the stores it must
// find and the rule its results are judged by (the criteria). Built from a seeded catalog
// by build-labels.ts and kept beside it as JSON.
import type { QueryKind } from '../../support/search-queries.ts';

export type Rule =
  /** at least one of `relevant` among the first `within` results */
  | { kind: 'any-within'; within: number }
  /** the first min(within, relevant.length) results are all relevant */
  | { kind: 'all-first'; within: number }
  /** every one of the first `within` results holds a search term starting with `prefix` */
  | { kind: 'terms-start-with'; prefix: string; within: number }
  /** no result at all */
  | { kind: 'empty' }
  /** no result whose name contains `text` (acme must not answer "...home...") */
  | { kind: 'none-named'; text: string };

export interface LabelledQuery {
  q: string;
  kind: QueryKind | 'trap';
  /** the domains that answer the query (for any-within and all-first) */
  relevant: string[];
  rule: Rule;
}

export interface LabelFile {
  /** how the catalog was seeded: the suite seeds the same one (or reads RELEVANCE_DATABASE_URL) */
  catalog: { stores: number; seed: number };
  queries: LabelledQuery[];
}
