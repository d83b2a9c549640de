// Transactions on a pooled connection and on one the caller holds: what work wrote is there after
// it resolved, gone after it threw, and the held connection is usable afterwards either way.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction, transactionOn } from '../../../src/platform/database/transaction.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await pool.query('CREATE TABLE written (n int)');
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const written = async () =>
  (await pool.query<{ n: number }>('SELECT n FROM written ORDER BY n')).rows.map((r) => r.n);

describe('a transaction', () => {
  it('on a pooled connection keeps what work wrote when it resolves, with its result', async () => {
    await pool.query('TRUNCATE written');
    const result = await inTransaction(pool, async (client) => {
      await client.query('INSERT INTO written VALUES (1)');
      return 'done';
    });
    expect(result).toBe('done');
    expect(await written()).toEqual([1]);
  });

  it('on a pooled connection writes nothing when work throws, and rethrows', async () => {
    await pool.query('TRUNCATE written');
    await expect(
      inTransaction(pool, async (client) => {
        await client.query('INSERT INTO written VALUES (2)');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await written()).toEqual([]);
    // its connection went back to the pool
    expect(pool.idleCount).toBe(pool.totalCount);
  });

  it('on a held connection commits or rolls back, and leaves it open and out of the transaction', async () => {
    await pool.query('TRUNCATE written');
    const client = await pool.connect();
    try {
      await transactionOn(client, () => client.query('INSERT INTO written VALUES (3)'));
      await expect(
        transactionOn(client, async () => {
          await client.query('INSERT INTO written VALUES (4)');
          await client.query('SELECT 1/0');
        }),
      ).rejects.toThrow(/division by zero/);
      // a statement outside any transaction: autocommitted at once, seen by other connections
      await client.query('INSERT INTO written VALUES (5)');
      expect(await written()).toEqual([3, 5]);
    } finally {
      client.release();
    }
  });
});
