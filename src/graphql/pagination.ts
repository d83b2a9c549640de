// Offset pagination shared by every connection: `first` (default 20, at most 100) and `after`
// (an opaque offset cursor), resolved with Pothos relay's offset cursors. The REST adapter maps
// limit/offset onto exactly these arguments.
import { defaultFieldResolver, type GraphQLSchema, isObjectType } from 'graphql';
import {
  cursorToOffset,
  resolveOffsetConnection,
  type DefaultConnectionArguments,
} from '@pothos/plugin-relay';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Store.history may be read whole: the contract asks for e.g. 90 or 180 daily snapshots in one call. */
export const MAX_HISTORY_DAYS = 180;

/** True when `cursor` is one of our offset cursors (a non-negative integer offset). */
export function isOffsetCursor(cursor: string): boolean {
  try {
    const offset = cursorToOffset(cursor);
    return Number.isSafeInteger(offset) && offset >= 0;
  } catch {
    return false;
  }
}

export interface Page<T> {
  rows: readonly T[];
  total: number;
  /** false when total is an estimate (see countUpTo in sql.ts) */
  exact?: boolean;
}

/** The offset/limit window a connection asks for; limit is one more than the page size so
 *  hasNextPage comes from the rows themselves, never from the (possibly estimated) total. */
export interface Window {
  offset: number;
  limit: number;
}

/** An empty page has no first or last edge, so no cursors (Pothos would name offset -1). */
function withoutCursorsWhenEmpty<
  C extends {
    edges: readonly unknown[];
    pageInfo: { startCursor?: string | null; endCursor?: string | null };
  },
>(connection: C): C {
  if (connection.edges.length > 0) return connection;
  return {
    ...connection,
    pageInfo: { ...connection.pageInfo, startCursor: null, endCursor: null },
  };
}

/**
 * A connection whose page and total are fetched together. The total is attached after the page is
 * cut, not handed to resolveOffsetConnection, so an estimated total can never truncate paging.
 */
export async function offsetConnection<T>(
  args: DefaultConnectionArguments,
  fetchPage: (window: Window) => Promise<readonly T[]>,
  countTotal: () => Promise<{ total: number; exact: boolean }>,
) {
  const [connection, count] = await Promise.all([
    resolveOffsetConnection(
      { args, defaultSize: DEFAULT_PAGE_SIZE, maxSize: MAX_PAGE_SIZE },
      fetchPage,
    ),
    countTotal(),
  ]);
  return {
    ...withoutCursorsWhenEmpty(connection),
    totalCount: count.total,
    totalCountExact: count.exact,
  };
}

/** A connection over a page that arrives with its total in one call (batched child lists). */
export async function pagedConnection<T>(
  args: DefaultConnectionArguments,
  load: (window: Window) => Promise<Page<T>>,
  maxSize: number = MAX_PAGE_SIZE,
) {
  let total = 0;
  let exact = true;
  const connection = await resolveOffsetConnection(
    { args, defaultSize: DEFAULT_PAGE_SIZE, maxSize },
    async (window: Window) => {
      const page = await load(window);
      total = page.total;
      exact = page.exact ?? true;
      return page.rows;
    },
  );
  return { ...withoutCursorsWhenEmpty(connection), totalCount: total, totalCountExact: exact };
}

/** A connection over a list already held in memory (small, bounded lists such as verticals). */
export function arrayConnection<T>(args: DefaultConnectionArguments, items: readonly T[]) {
  return pagedConnection(args, async ({ offset, limit }) => ({
    rows: items.slice(offset, offset + limit),
    total: items.length,
  }));
}

/**
 * pageInfo.hasNextPage is false at the edge of the caller's result window: the next page would be
 * refused, and the contract tells clients to page on while there is more. The connection's own
 * hasNextPage says whether rows exist past the page; the window is the caller's, known only per request.
 */
export function stopPagingAtResultWindow(schema: GraphQLSchema): GraphQLSchema {
  const pageInfo = schema.getType('PageInfo');
  const field = isObjectType(pageInfo) ? pageInfo.getFields().hasNextPage : undefined;
  if (!field) return schema;
  const resolve = field.resolve ?? defaultFieldResolver;
  field.resolve = (
    parent: { endCursor?: string | null },
    args,
    context: { resultWindow?: number },
    info,
  ) => {
    const more = resolve(parent, args, context, info) as boolean;
    if (!more || context.resultWindow === undefined || !parent.endCursor) return more;
    return cursorToOffset(parent.endCursor) + 1 < context.resultWindow;
  };
  return schema;
}
