// Raw SQL for the catalog reads Prisma cannot express well (trigram search, GROUP BY with
// percentiles, lateral pages). Every value travels as a bind parameter ($n); only fixed SQL
// fragments chosen from code (never caller text) are spliced into statements.
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
  const query = prepared ? { name: prepared, text, values: values as unknown[] } : { text, values: values as unknown[] };
  const result = await guardDb(pool.query<R & pg.QueryResultRow>(query));
  return result.rows;
}

/**
 * Exact counts stay exact up to this many rows. Past it, counting every match of a broad filter
 * over a million-store catalog costs a scan per request, so we report PostgreSQL's own row
 * estimate for the same statement instead and flag the total as inexact (totalCountExact).
 * Paging never depends on the total: hasNextPage comes from fetching one row more than the page.
 */
export const EXACT_COUNT_LIMIT = 10_000;

/** Counts the rows of `SELECT 1 FROM <fromWhere>`; exact up to EXACT_COUNT_LIMIT, estimated past it. */
export async function countUpTo(
  pool: Queryable,
  fromWhere: string,
  values: readonly unknown[],
): Promise<{ total: number; exact: boolean }> {
  const [counted] = await queryRows<{ n: number }>(
    pool,
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${fromWhere} LIMIT ${EXACT_COUNT_LIMIT + 1}) capped`,
    values,
  );
  const n = counted?.n ?? 0;
  if (n <= EXACT_COUNT_LIMIT) return { total: n, exact: true };
  const [plan] = await queryRows<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    pool,
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${fromWhere}`,
    values,
  );
  const estimate = Math.round(plan?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0);
  return { total: Math.max(estimate, n), exact: false };
}

/** Matches `value` literally inside ILIKE: escapes the pattern characters % _ and \. */
export const likeContains = (value: string): string => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
