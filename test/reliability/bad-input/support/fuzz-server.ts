// The server the bad-input suites hammer: the real HTTP shell (access layer included) on a fresh
// database holding the catalog fixture and the job queue's schema, one API key whose plan's limits
// are raised far above what the generated requests need (so every answer is about the input, not a
// quota), and a snapshot of every table's row count to prove that a refused request wrote nothing.
import { randomBytes } from 'node:crypto';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { migrateJobQueue } from '../../../../src/platform/jobs/job-queue.ts';
import {
  bearer,
  mintKey,
  startAccessServer,
  type AccessServer,
} from '../../../access/access-server.ts';
import { loadCatalogFixture } from '../../../support/catalog-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../../support/database.ts';
import { responseValidator } from '../../../rest/support/openapi-validation.ts';

const GENEROUS = { perMinute: 1_000_000, perKeyDaily: null, resultWindow: 1_000_000 };
const GENEROUS_DAILY = Object.fromEntries(
  ['storeSearches', 'storeLookups', 'productSearches', 'productAppLookups', 'scrapeRequests'].map(
    (bucket) => [bucket, 1_000_000],
  ),
);

export const WEBHOOK_SECRET_FOR_TESTS = `whsec_${randomBytes(32).toString('base64')}`;

export interface FuzzServer {
  server: AccessServer;
  key: string;
  headers: Record<string, string>;
  /** errors found in a JSON answer against the served OpenAPI description ([] = conforms) */
  validate(method: string, template: string, status: number, body: unknown): string[];
  /** row count of every table the service writes (catalog, accounts, signals, scrapes, job queue) */
  rowCounts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

export async function startFuzzServer(): Promise<FuzzServer> {
  const db: TestDatabase = await createTestDatabase();
  const server = await startAccessServer(db.url, {
    PLAN_LIMITS_JSON: JSON.stringify({ pro: { ...GENEROUS, daily: GENEROUS_DAILY } }),
    // callbackUrl is then accepted when it is a public https URL, so generated bodies reach the scrape logic
    WEBHOOK_SIGNING_SECRET: WEBHOOK_SECRET_FOR_TESTS,
  });
  const pool = server.services.db.pool;
  await migrateJobQueue(pool);
  await loadCatalogFixture(pool, server.services.legacy);
  const key = await mintKey(server, {
    accountExternalId: `fuzz-${randomBytes(3).toString('hex')}`,
    plan: 'pro',
  });

  const document = (
    await server.app.inject({ method: 'GET', url: '/v1/openapi.json' })
  ).json() as OpenAPIObject;
  const validate = responseValidator(document);

  const { rows: tables } = await pool.query<{ name: string }>(
    `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema IN ('public', 'graphile_worker')
       AND table_name NOT IN ('_prisma_migrations', 'migrations', 'schema_migrations')
     ORDER BY 1`,
  );
  // one row per table, gathered into an object: a function takes at most 100 arguments, and the
  // month partitions of the time series are tables of their own
  const countAll = `SELECT json_object_agg(name, rows) AS counts FROM (${tables
    .map((t, i) => `SELECT $${i + 1}::text AS name, (SELECT count(*) FROM ${t.name}) AS rows`)
    .join(' UNION ALL ')}) tables`;

  return {
    server,
    key,
    headers: bearer(key),
    validate,
    async rowCounts() {
      const { rows } = await pool.query<{ counts: Record<string, number> }>(
        countAll,
        tables.map((t) => t.name),
      );
      return rows[0]!.counts;
    },
    async close() {
      await server.close();
      await db.drop();
    },
  };
}
