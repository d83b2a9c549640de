import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../../src/generated/prisma/client.ts';
import { openDatabase, type Database } from '../../src/platform/database/database.ts';
import { mapDatabaseError } from '../../src/platform/database/database-errors.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { ApiError } from '../../src/platform/errors.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

const logger = createLogger('silent');
const TIMEOUT_MS = 300;

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('structured store connections', () => {
  let testDb: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await openDatabase({ url: testDb.url, logger, queryTimeoutMs: TIMEOUT_MS });
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('serves typed queries through Prisma and raw SQL through the pool', async () => {
    expect(await db.prisma.store.count()).toBe(0);
    const { rows } = await db.pool.query<{ one: number }>('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('sets statement_timeout on both pools', async () => {
    const raw = await db.pool.query<{ statement_timeout: string }>('SHOW statement_timeout');
    expect(raw.rows[0]?.statement_timeout).toBe(`${TIMEOUT_MS}ms`);
    const viaPrisma = await db.prisma.$queryRaw<
      { statement_timeout: string }[]
    >`SHOW statement_timeout`;
    expect(viaPrisma[0]?.statement_timeout).toBe(`${TIMEOUT_MS}ms`);
  });

  // JIT compiled a search statement that the planner costs high (its term lists given as InitPlans)
  // in 145 ms, for an answer of a few milliseconds
  it('turns JIT off on both pools', async () => {
    const raw = await db.pool.query<{ jit: string }>('SHOW jit');
    expect(raw.rows[0]?.jit).toBe('off');
    const viaPrisma = await db.prisma.$queryRaw<{ jit: string }[]>`SHOW jit`;
    expect(viaPrisma[0]?.jit).toBe('off');
  });

  it('ends a runaway raw query as query_timeout', async () => {
    const error = await caught(db.pool.query('SELECT pg_sleep(5)'));
    const mapped = mapDatabaseError(error);
    expect(mapped).toBeInstanceOf(ApiError);
    expect(mapped?.code).toBe('query_timeout');
    expect(mapped?.status).toBe(504);
  });

  it('ends a Prisma model query stuck past the timeout as query_timeout', async () => {
    const locker = new pg.Client({ connectionString: testDb.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE stores IN ACCESS EXCLUSIVE MODE');
      const error = await caught(db.prisma.store.findMany({ take: 1 }));
      expect(mapDatabaseError(error)?.code).toBe('query_timeout');
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
  });

  it('still answers after a timed-out query (the connection is reusable)', async () => {
    await caught(db.prisma.$queryRaw`SELECT pg_sleep(5)`);
    expect(await db.prisma.store.count()).toBe(0);
  });

  it('leaves other database errors to the caller', async () => {
    const error = await caught(db.pool.query('SELECT * FROM no_such_table'));
    expect(mapDatabaseError(error)).toBeUndefined();
  });
});

describe('an unreachable structured store', () => {
  const unreachable = 'postgresql://postgres:s3cret@127.0.0.1:1/nowhere';

  it('fails to open with the reason, at start rather than on the first request', async () => {
    await expect(openDatabase({ url: unreachable, logger, queryTimeoutMs: 1000 })).rejects.toThrow(
      /cannot connect to the structured store: .*ECONNREFUSED/,
    );
  });

  it('maps connection failures to internal without host, port or credentials', async () => {
    const pool = new pg.Pool({ connectionString: unreachable });
    const error = await caught(pool.query('SELECT 1'));
    await pool.end();
    const mapped = mapDatabaseError(error);
    expect(mapped?.code).toBe('internal');
    expect(mapped?.message).not.toMatch(/127\.0\.0\.1|nowhere|s3cret|ECONNREFUSED/);
  });

  it("maps Prisma's connection failures the same way", async () => {
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: unreachable }) });
    const error = await caught(prisma.store.findMany({ take: 1 }));
    await prisma.$disconnect();
    const mapped = mapDatabaseError(error);
    expect(mapped?.code).toBe('internal');
    expect(mapped?.message).not.toMatch(/127\.0\.0\.1|nowhere|s3cret/);
  });
});
