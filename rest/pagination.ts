// The list envelope of spec part 2 over a GraphQL connection: REST's limit/offset become Relay's
// first/after (Pothos offset cursors), and the connection's page facts become `page`.
import { offsetToCursor } from '@pothos/plugin-relay';
import type { Pagination } from './params.ts';

export interface ConnectionPage<TNode> {
  totalCount: number;
  pageInfo: { hasNextPage: boolean };
  edges: ReadonlyArray<{ node: TNode }>;
}

export function connectionArgs({ limit, offset }: Pagination): { first: number; after?: string } {
  // The cursor names the last item before the page, hence offset - 1.
  return offset > 0 ? { first: limit, after: offsetToCursor(offset - 1) } : { first: limit };
}

export function listEnvelope<TNode>(connection: ConnectionPage<TNode>, { limit, offset }: Pagination) {
  const data = connection.edges.map((edge) => edge.node);
  return {
    data,
    page: {
      limit,
      offset,
      count: data.length,
      hasMore: connection.pageInfo.hasNextPage,
      total: connection.totalCount,
    },
  };
}

/** A list the API returns whole (no limit/offset), in the same envelope so clients page uniformly. */
export function wholeListEnvelope<T>(items: readonly T[]) {
  return {
    data: [...items],
    page: { limit: items.length, offset: 0, count: items.length, hasMore: false, total: items.length },
  };
}
