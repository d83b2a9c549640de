// Offset pagination shared by every connection: `first` (default 20, at most 100) and `after`
// (an opaque offset cursor), resolved with Pothos relay's offset cursors. The REST adapter maps
// limit/offset onto exactly these arguments.
import {
  defaultFieldResolver,
  getNamedType,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  isObjectType,
  type GraphQLResolveInfo,
} from 'graphql';
import { badRequest } from '../platform/errors.ts';
import { cursorPosition, listCursor } from './cursors.ts';
import { selectedFieldNames } from './selection.ts';
import {
  offsetForArgs,
  offsetToCursor,
  type DefaultConnectionArguments,
} from '@pothos/plugin-relay';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Store.history may be read whole: the contract asks for e.g. 90 or 180 daily snapshots in one call. */
export const MAX_HISTORY_DAYS = 180;

/** True when `cursor` is one of our cursors (a list's, or an untagged offset). */
export const isOffsetCursor = (cursor: string): boolean => cursorPosition(cursor) !== undefined;

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

/** A position's cursor: its list's (set by tagListCursors), or an untagged offset cursor. */
const cursorAt = (list: string | undefined, offset: number) =>
  list ? listCursor(list, offset) : offsetToCursor(offset);

/** An edge whose cursor is encoded only when a caller selects it. */
class PagedEdge<T> {
  /** the list it belongs to (`Type.field`), set by tagListCursors */
  list?: string;
  constructor(
    readonly node: T,
    readonly offset: number,
  ) {}
  get cursor(): string {
    return cursorAt(this.list, this.offset);
  }
}

/** A page's pageInfo, its cursors encoded when selected; an empty page has none. */
class PagedPageInfo {
  list?: string;
  constructor(
    readonly hasNextPage: boolean,
    readonly hasPreviousPage: boolean,
    /** the positions of the first and last edges; last < first on an empty page */
    readonly startOffset: number,
    readonly endOffset: number,
  ) {}
  get startCursor(): string | null {
    return this.endOffset < this.startOffset ? null : cursorAt(this.list, this.startOffset);
  }
  get endCursor(): string | null {
    return this.endOffset < this.startOffset ? null : cursorAt(this.list, this.endOffset);
  }
}

interface PagedConnection<T> {
  edges: PagedEdge<T>[];
  pageInfo: PagedPageInfo;
}

/** The page `args` ask for (Pothos's offset arguments), with its edges and pageInfo. */
async function windowConnection<T>(
  args: DefaultConnectionArguments,
  maxSize: number,
  fetchPage: (window: Window) => Promise<readonly T[]>,
): Promise<PagedConnection<T>> {
  const { offset, limit, expectedSize, hasPreviousPage, hasNextPage } = offsetForArgs({
    args,
    defaultSize: DEFAULT_PAGE_SIZE,
    maxSize,
  });
  const rows = await fetchPage({ offset, limit });
  const edges = rows.slice(0, expectedSize).map((node, i) => new PagedEdge(node, offset + i));
  return {
    edges,
    pageInfo: new PagedPageInfo(
      hasNextPage(rows.length),
      hasPreviousPage,
      offset,
      offset + edges.length - 1,
    ),
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
    windowConnection(args, MAX_PAGE_SIZE, fetchPage),
    countTotal(),
  ]);
  return { ...connection, totalCount: count.total, totalCountExact: count.exact };
}

/** Whether the caller selected the connection's total: a list not asked for it is not counted. */
export function totalSelected(info: GraphQLResolveInfo): boolean {
  const selected = selectedFieldNames(info);
  return selected.has('totalCount') || selected.has('totalCountExact');
}

/** A connection over a page that arrives with its total in one call (batched child lists). */
export async function pagedConnection<T>(
  args: DefaultConnectionArguments,
  load: (window: Window) => Promise<Page<T>>,
  maxSize: number = MAX_PAGE_SIZE,
) {
  let total = 0;
  let exact = true;
  const connection = await windowConnection(args, maxSize, async (window: Window) => {
    const page = await load(window);
    total = page.total;
    exact = page.exact ?? true;
    return page.rows;
  });
  return { ...connection, totalCount: total, totalCountExact: exact };
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
  field.resolve = (parent: PagedPageInfo, args, context: { resultWindow?: number }, info) => {
    const more = resolve(parent, args, context, info) as boolean;
    if (!more || context.resultWindow === undefined || parent.endOffset < parent.startOffset)
      return more;
    return parent.endOffset + 1 < context.resultWindow;
  };
  return schema;
}

/**
 * Every connection field's cursors name their list (`Type.field`): a cursor of another list is a
 * bad_request naming `after`, an untagged offset cursor (REST's offset) is read as its position.
 */
export function tagListCursors(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const returns = getNamedType(field.type);
      if (!returns.name.endsWith('Connection') || !field.args.some((a) => a.name === 'after'))
        continue;
      const list = `${type.name}.${field.name}`;
      // the cursors are encoded from the list and the positions when they are selected
      const tag = (connection: PagedConnection<unknown> | null | undefined) => {
        if (!connection) return connection;
        connection.pageInfo.list = list;
        for (const edge of connection.edges) edge.list = list;
        return connection;
      };
      const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
      field.resolve = (parent, args: { after?: unknown }, context, info) => {
        let read = args;
        if (typeof args.after === 'string') {
          // a cursor that is not ours at all is left to the argument's own validation
          const position = cursorPosition(args.after);
          if (position?.list !== undefined && position.list !== list) {
            throw badRequest(
              `Invalid after: a cursor of ${position.list}, not of ${list}; page a list with its own pageInfo.endCursor.`,
              { parameter: 'after', rule: `must be a cursor of ${list}` },
            );
          }
          if (position) read = { ...args, after: offsetToCursor(position.offset) };
        }
        const connection = resolve(parent, read, context, info) as
          | PagedConnection<unknown>
          | Promise<PagedConnection<unknown>>;
        return connection instanceof Promise ? connection.then(tag) : tag(connection);
      };
    }
  }
  return schema;
}
