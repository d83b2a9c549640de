// Transactions on a pooled connection and on one the caller holds: what work wrote is there after
// it resolved, gone after it threw, and the held connection is usable afterwards either way.
import { beforeAll, describe, expect, it } from 'vitest';
import { inTransaction, transactionOn } from '../../../src/platform/database/transaction.ts';
import { suiteDatabase } from '../../support/database.ts';

const suite = suiteDatabase({ empty: true });

beforeAll(async () => {
  await suite.pool.query('CREATE TABLE written (n int)');
});

const written = async () =>
  (await suite.pool.query<{ n: number }>('SELECT n FROM written ORDER BY n')).rows.map((r) => r.n);

describe('a transaction', () => {
  it('on a pooled connection keeps what work wrote when it resolves, with its result', async () => {
    await suite.pool.query('TRUNCATE written');
    const result = await inTransaction(suite.pool, async (client) => {
      await client.query('INSERT INTO written VALUES (1)');
      return 'done';
    });
    expect(result).toBe('done');
    expect(await written()).toEqual([1]);
  });

  it('on a pooled connection writes nothing when work throws, and rethrows', async () => {
    await suite.pool.query('TRUNCATE written');
    await expect(
      inTransaction(suite.pool, async (client) => {
        await client.query('INSERT INTO written VALUES (2)');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await written()).toEqual([]);
    // its connection went back to the pool
    expect(suite.pool.idleCount).toBe(suite.pool.totalCount);
  });

  it('on a held connection commits or rolls back, and leaves it open and out of the transaction', async () => {
    await suite.pool.query('TRUNCATE written');
    const client = await suite.pool.connect();
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
