// A fresh, fully migrated database for one suite: CREATE DATABASE ... TEMPLATE of the template
// that global-setup migrated once. Names carry the run's pid so global teardown can sweep leftovers.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { databaseUrl } from './database-url.ts';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * pg-pool's end() resolves before its clients' sockets are closed. FORCE terminates such a closing
 * session, and the server's FATAL 57P01 then reaches a client whose pool no longer listens: an
 * uncaught exception that fails a green run. So the drop first lets the database's sessions leave
 * on their own (a few seconds at most), then forces whatever still lingers.
 */
async function dropWhenIdle(client: pg.Client, name: string): Promise<void> {
  for (let waited = 0; waited < 5_000; waited += 50) {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
      [name],
    );
    if (rows[0]!.n === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/** `empty`: a database without the schema, for tests of the migrations themselves */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const template = options.empty ? 'template0' : inject('pgTemplate');
  const runPid = inject('pgTemplate').split('_')[2];
  const name = `test_db_${runPid}_${randomBytes(5).toString('hex')}`;
  // CREATE DATABASE ... TEMPLATE needs the template to have no other sessions; retry briefly if a
  // parallel suite is copying it at the same moment.
  for (let attempt = 0; ; attempt++) {
    try {
      await admin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
      break;
    } catch (error) {
      if (
        attempt >= 20 ||
        !String((error as Error).message).includes('being accessed by other users')
      )
        throw error;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  const url = databaseUrl(inject('pgAdminUrl'), name);
  return {
    url,
    name,
    drop: () => admin((c) => dropWhenIdle(c, name)),
  };
}

/** A suite's own database and a pool of two connections on it (`pool` and `db` are set before its tests run). */
export interface SuiteDatabase {
  db: TestDatabase;
  pool: pg.Pool;
}

/**
 * A fresh database for the calling suite (or describe block), with a pool on it: made before its
 * tests, the pool ended and the database dropped after them. A beforeAll the suite registers after
 * this call finds the pool ready.
 */
export function suiteDatabase(options: { empty?: boolean } = {}): SuiteDatabase {
  const suite = {} as SuiteDatabase;
  beforeAll(async () => {
    suite.db = await createTestDatabase(options);
    suite.pool = new pg.Pool({ connectionString: suite.db.url, max: 2 });
  });
  afterAll(async () => {
    await suite.pool?.end();
    await suite.db?.drop();
  });
  return suite;
}

/** Which server the suites run on: this machine's (DATABASE_URL) or an embedded one. */
export const testServerKind = () => inject('pgServer');
