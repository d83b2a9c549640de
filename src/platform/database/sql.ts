// Raw SQL for the catalog reads Prisma cannot express well (trigram search, GROUP BY with
// percentiles, lateral pages). Every value travels as a bind parameter ($n); only fixed SQL
// fragments chosen from code (never caller text) are spliced into statements.
import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import { mapDatabaseError } from './database-errors.ts';

export type Queryable = Pick<pg.Pool, 'query'>;

/** Collects bind parameters and hands out their placeholders. */
export class SqlParams {
  readonly values: unknown[] = [];

  /** Adds a value and returns its placeholder, e.g. `$3`. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Database failures become contract errors (statement timeout → query_timeout); others pass on. */
export async function guardDb<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw mapDatabaseError(error) ?? error;
  }
}

/**
 * Runs a statement. A hot statement of fixed text passes a `prepared` name: each connection then
 * parses and plans it once and later runs only bind and execute (a name must always carry the
 * same text; dynamic SQL such as search filters stays unnamed).
 */
export async function queryRows<R extends object>(
  pool: Queryable,
  text: string,
  values: readonly unknown[] = [],
  prepared?: string,
): Promise<R[]> {
  const query = prepared
    ? { name: prepared, text, values: values as unknown[] }
    : { text, values: values as unknown[] };
  const result = await guardDb(pool.query<R & pg.QueryResultRow>(query));
  return result.rows;
}

/**
 * A read by key, as two statement texts: `column = $1` for a batch of one key, `column =
 * ANY($1::type[])` for more. PostgreSQL cannot see into an array parameter when it builds a prepared
 * statement's generic plan: it takes the ANY form to match many rows, judges the generic plan dearer
 * than one planned for the values at hand, and so plans the ANY form again at every execution. The
 * single-key form gets its generic plan after a few executions and from then on costs only bind and
 * execute. Most lookups are one key (a store by domain), so they take the cheap form; a batch of
 * many is still one statement.
 */
export interface KeyedRead {
  one: string;
  many: string;
}

/** Both texts of a read by `column`; `build` places the key condition it is handed. */
export const keyedRead = (
  column: string,
  arrayType: 'int' | 'text',
  build: (keyCondition: string) => string,
): KeyedRead => ({
  one: build(`${column} = $1`),
  many: build(`${column} = ANY($1::${arrayType}[])`),
});

/** Runs a keyed read for `keys` as the named prepared statement `prepared` (`<prepared>:one` for a single key). */
export function queryByKeys<R extends object>(
  pool: Queryable,
  read: KeyedRead,
  keys: readonly unknown[],
  prepared: string,
): Promise<R[]> {
  return keys.length === 1
    ? queryRows<R>(pool, read.one, [keys[0]], `${prepared}:one`)
    : queryRows<R>(pool, read.many, [keys], prepared);
}

/**
 * Exact counts stay exact up to this many rows. Past it, counting every match of a broad filter
 * over a million-store catalog costs a scan per request, so we report PostgreSQL's own row
 * estimate for the same statement instead and flag the total as inexact (totalCountExact).
 * Paging never depends on the total: hasNextPage comes from fetching one row more than the page.
 */
export const EXACT_COUNT_LIMIT = 10_000;

/**
 * A scalar subquery counting the rows of `SELECT 1 FROM <fromWhere>` up to EXACT_COUNT_LIMIT + 1,
 * to ride along in the statement that reads the page (uncorrelated: PostgreSQL runs it once).
 */
export const cappedCount = (fromWhere: string): string =>
  `(SELECT count(*)::int FROM (SELECT 1 FROM ${fromWhere} LIMIT ${EXACT_COUNT_LIMIT + 1}) capped)`;

/**
 * Counts the rows of `SELECT 1 FROM <fromWhere>`; exact up to EXACT_COUNT_LIMIT, estimated past it.
 * `excluded` (a FROM ... WHERE over the same parameters) names a few rows among them that do not
 * count: they are counted apart in the same statement and taken off, so the main count keeps its
 * index-only plan (an anti-join inside a capped count makes PostgreSQL give it up).
 */
export async function countUpTo(
  pool: Queryable,
  fromWhere: string,
  values: readonly unknown[],
  excluded?: string,
): Promise<{ total: number; exact: boolean }> {
  const less = excluded ? ` - (SELECT count(*)::int FROM ${excluded})` : '';
  const [counted] = await queryRows<{ n: number }>(
    pool,
    `SELECT ${cappedCount(fromWhere)}${less} AS n`,
    values,
  );
  return totalFromCapped(pool, counted?.n ?? 0, fromWhere, values);
}

/** The total reported for a capped count: the count itself up to EXACT_COUNT_LIMIT, the planner's estimate past it. */
export async function totalFromCapped(
  pool: Queryable,
  capped: number,
  fromWhere: string,
  values: readonly unknown[],
): Promise<{ total: number; exact: boolean }> {
  if (capped <= EXACT_COUNT_LIMIT) return { total: capped, exact: true };
  return { total: Math.max(await estimatedRows(pool, fromWhere, values), capped), exact: false };
}

/**
 * PostgreSQL's estimate only moves when the table's statistics do (ANALYZE, autovacuum), so the
 * estimate of one filter is kept for a minute: a broad list asked again costs no EXPLAIN.
 */
const ESTIMATE_TTL_MS = 60_000;
const estimates = new WeakMap<Queryable, LRUCache<string, number>>();

/** Estimated rows of `SELECT 1 FROM <fromWhere>` (EXPLAIN, nothing executed). */
export async function estimatedRows(
  pool: Queryable,
  fromWhere: string,
  values: readonly unknown[],
): Promise<number> {
  let cache = estimates.get(pool);
  if (!cache)
    estimates.set(
      pool,
      (cache = new LRUCache<string, number>({ max: 1_000, ttl: ESTIMATE_TTL_MS })),
    );
  const key = `${fromWhere}\u0000${JSON.stringify(values)}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const [plan] = await queryRows<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    pool,
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${fromWhere}`,
    values,
  );
  const estimate = Math.round(plan?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0);
  cache.set(key, estimate);
  return estimate;
}

/** Matches `value` literally inside ILIKE: escapes the pattern characters % _ and \. */
export const likeContains = (value: string): string =>
  `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
