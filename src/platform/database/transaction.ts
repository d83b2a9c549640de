// Transactions: committed when `work` resolves, rolled back when it throws. On a connection taken
// from a pool for the purpose, or on one the caller already holds (a job's, a migration's, the seed's).
import type pg from 'pg';

export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    return await transactionOn(client, () => work(client));
  } finally {
    client.release();
  }
}

/** One transaction on `client`, a connection the caller holds and releases itself. */
export async function transactionOn<T>(
  client: Pick<pg.ClientBase, 'query'>,
  work: () => Promise<T>,
): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
