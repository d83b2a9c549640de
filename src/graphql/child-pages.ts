// Batched pages of child rows (a store's history, an app's stores, ...): every parent in one
// DataLoader batch gets its page from one LATERAL statement per distinct window, plus, for the
// parents whose callers select the total, one GROUP BY statement for all their totals, however many
// parents the request holds. Both are named statements: their text is fixed per list, so each
// connection plans them once. A page (or total) inside the first rows the parent's own read carried
// (carriedRows) costs no statement at all.
import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import type { DefaultConnectionArguments } from '@pothos/plugin-relay';
import {
  DEFAULT_PAGE_SIZE,
  pagedConnection,
  totalSelected,
  type Page,
  type Window,
} from './pagination.ts';
import { queryRows, type Queryable } from '../platform/database/sql.ts';

export interface ChildPageKey extends Window {
  parentId: number;
  /** the exact total is counted only when the caller selected it (totalCount) */
  withTotal: boolean;
}

/** Fixed SQL (from code, never from callers) describing one parent → children list. */
export interface ChildListSpec {
  /** the list's name in its statements' names (`child-page:<name>`, `child-total:<name>`) */
  name: string;
  /** select list of a child row, aliased to the record's field names */
  select: string;
  /** FROM clause with its joins, no WHERE */
  from: string;
  /** the column holding the parent's id, e.g. `h.store_id` */
  parentColumn: string;
  /** an extra fixed condition, e.g. `p.is_best_seller` */
  condition?: string;
  orderBy: string;
  /**
   * A single parent's page whose best plan depends on the parent ($1 the parent, $2 offset, $3
   * limit), sent unnamed so PostgreSQL plans it for the value at hand: an app's stores walk the
   * stores by visits for a common app and start from the installs of a rare one.
   */
  onePage?: string;
}

/** A list's page loader, which a parent's read can hand the first rows it carried (carriedRows). */
export type ChildPageLoader<R> = DataLoader<ChildPageKey, Page<R>, string> & {
  /** the parent's first rows (at most CARRIED_ROWS): windows inside them are answered without a statement */
  carry(parentId: number, rows: readonly R[]): void;
  /** the first rows carried so far, by parent */
  readonly carried: ReadonlyMap<number, readonly R[]>;
};

/** How many first rows a parent's read carries: the default page and the row telling whether there is a next one. */
const CARRIED_ROWS = DEFAULT_PAGE_SIZE + 1;

/** The list's fixed condition as an ` AND …` to follow its parent's, or nothing. */
const conditionOf = (spec: ChildListSpec) => (spec.condition ? ` AND ${spec.condition}` : '');

/** Fewer rows than a parent's read carries at most: they are the parent's whole list. */
export const carriedWhole = (rows: readonly unknown[]): boolean => rows.length < CARRIED_ROWS;

/** A window's page and total from the parent's carried first rows, where they hold it. */
function fromCarried<R>(
  carried: readonly R[] | undefined,
  k: ChildPageKey,
): { rows?: readonly R[]; total?: number } {
  if (!carried) return {};
  const whole = carriedWhole(carried);
  return {
    rows:
      whole || k.offset + k.limit <= carried.length
        ? carried.slice(k.offset, k.offset + k.limit)
        : undefined,
    total: whole ? carried.length : undefined,
  };
}

export function childPageLoader<R>(pool: Queryable, spec: ChildListSpec): ChildPageLoader<R> {
  const condition = conditionOf(spec);
  const totalsText = `SELECT ${spec.parentColumn} AS "parentId", count(*)::int AS n FROM ${spec.from}
    WHERE ${spec.parentColumn} = ANY($1::int[])${condition} GROUP BY 1`;
  // one parent (a store's own page, the common case) by equality, which PostgreSQL plans once per
  // connection; it re-plans an array parameter at every execution
  const onePageText = `SELECT ${spec.parentColumn} AS "__parentId", ${spec.select} FROM ${spec.from}
    WHERE ${spec.parentColumn} = $1${condition} ORDER BY ${spec.orderBy} LIMIT $3 OFFSET $2`;
  const pagesText = `SELECT k.parent_id AS "__parentId", c.* FROM unnest($1::int[]) WITH ORDINALITY AS k(parent_id, ord)
    CROSS JOIN LATERAL (
      SELECT ${spec.select} FROM ${spec.from}
      WHERE ${spec.parentColumn} = k.parent_id${condition}
      ORDER BY ${spec.orderBy} LIMIT $3 OFFSET $2
    ) c ORDER BY k.ord`;
  const carriedOf = new Map<number, readonly R[]>();
  const loader = new DataLoader<ChildPageKey, Page<R>, string>(
    async (keys) => {
      const answered = keys.map((k) => fromCarried(carriedOf.get(k.parentId), k));
      const paged = keys.filter((_, i) => answered[i]!.rows === undefined);
      const parentIds = [...new Set(paged.map((k) => k.parentId))];
      const counted = [
        ...new Set(
          keys
            .filter((k, i) => k.withTotal && answered[i]!.total === undefined)
            .map((k) => k.parentId),
        ),
      ];
      const windows = new Map<string, Window>();
      for (const { offset, limit } of paged) windows.set(`${offset}:${limit}`, { offset, limit });

      const totalsQuery =
        counted.length === 0
          ? Promise.resolve([])
          : queryRows<{ parentId: number; n: number }>(
              pool,
              totalsText,
              [counted],
              `child-total:${spec.name}`,
            );
      // one parent by equality (or the list's own onePage), several through the LATERAL form
      const one = parentIds.length === 1;
      const page = !one
        ? { text: pagesText, name: `child-page:${spec.name}` }
        : spec.onePage
          ? { text: spec.onePage, name: undefined }
          : { text: onePageText, name: `child-page:${spec.name}:one` };
      const parents = one ? parentIds[0] : parentIds;
      const pageQueries = [...windows.entries()].map(async ([windowKey, { offset, limit }]) => {
        const rows = await queryRows<R & { __parentId: number }>(
          pool,
          page.text,
          [parents, offset, limit],
          page.name,
        );
        const byParent = new Map<number, R[]>();
        for (const { __parentId, ...row } of rows) {
          const list = byParent.get(__parentId) ?? [];
          list.push(row as unknown as R);
          byParent.set(__parentId, list);
        }
        return [windowKey, byParent] as const;
      });

      const [totals, pages] = await Promise.all([totalsQuery, Promise.all(pageQueries)]);
      const totalOf = new Map(totals.map((t) => [t.parentId, t.n]));
      const pageOf = new Map(pages);
      return keys.map((k, i) => ({
        rows: answered[i]!.rows ?? pageOf.get(`${k.offset}:${k.limit}`)?.get(k.parentId) ?? [],
        total: answered[i]!.total ?? totalOf.get(k.parentId) ?? 0,
      }));
    },
    { cacheKeyFn: (k) => `${k.parentId}:${k.offset}:${k.limit}:${k.withTotal ? 'total' : ''}` },
  );
  return Object.assign(loader, {
    carry: (parentId: number, rows: readonly R[]) => void carriedOf.set(parentId, rows),
    carried: carriedOf,
  });
}

/**
 * A list's first rows carried in its parent's own statement, so a parent and its first page cost one
 * round trip: `expression` is a select-list column over the parent's id (`parentId`, fixed SQL) that
 * holds up to CARRIED_ROWS rows as a JSON array in the list's order; `rowsOf` turns that value back
 * into records (`revive` restores what JSON cannot carry, such as dates). The spec's FROM must not
 * hide the parent's alias: its select may read the parent's columns (a product's store domain).
 */
export function carriedRows<R>(
  spec: ChildListSpec,
  parentId: string,
  revive: (row: Record<string, unknown>) => R = (row) => row as R,
): { expression: string; rowsOf: (value: unknown) => R[] } {
  const condition = conditionOf(spec);
  // the aggregate reads the sorted subquery in its order, nothing else being joined at its level (as
  // PostgreSQL documents for ordered aggregates); an ORDER BY inside json_agg would sort again
  const expression = `(SELECT coalesce(json_agg(c), '[]'::json) FROM (
      SELECT ${spec.select} FROM ${spec.from}
      WHERE ${spec.parentColumn} = ${parentId}${condition} ORDER BY ${spec.orderBy} LIMIT ${CARRIED_ROWS}
    ) c)`;
  const rowsOf = (value: unknown) => ((value ?? []) as Record<string, unknown>[]).map(revive);
  return { expression, rowsOf };
}

/** A parent's child list as a connection: its pages from the list's loader, counted only when the caller selected the total. */
export function childConnection<R>(
  args: DefaultConnectionArguments,
  info: GraphQLResolveInfo,
  parentId: number,
  load: (key: ChildPageKey) => Promise<Page<R>>,
  maxSize?: number,
) {
  const withTotal = totalSelected(info);
  return pagedConnection(args, (window) => load({ parentId, withTotal, ...window }), maxSize);
}
