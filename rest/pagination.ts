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

export function listEnvelope<TNode>(
  connection: ConnectionPage<TNode>,
  pagination: Pagination,
): ReturnType<typeof listEnvelopeOf<TNode, TNode>> {
  return listEnvelopeOf(connection, pagination, (node) => node);
}

/** The envelope of a page whose nodes become /v1 items through `toBody` (raw ids, REST's enum spelling). */
export function listEnvelopeOf<TNode, TBody>(
  connection: ConnectionPage<TNode>,
  { limit, offset }: Pagination,
  toBody: (node: TNode) => TBody,
) {
  const data = connection.edges.map((edge) => toBody(edge.node));
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

/** One page of a list the operation returns whole (a watch's daily sales): the contract's limit/offset over it. */
export function pageOfList<T>(items: readonly T[], { limit, offset }: Pagination) {
  const data = items.slice(offset, offset + limit);
  return {
    data,
    page: {
      limit,
      offset,
      count: data.length,
      hasMore: offset + data.length < items.length,
      total: items.length,
    },
  };
}
