// Runs once per `npm test`. Decides which PostgreSQL server the suites use and prepares a migrated
// template database (the app's schema and the job queue's), so each suite gets a fresh database by
// a cheap CREATE DATABASE ... TEMPLATE.
// With DATABASE_URL set (CI, this machine's PostgreSQL), that server; without it (a fresh machine),
// an embedded PostgreSQL started here under a temporary directory.
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import {
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../../src/platform/database/embedded-postgres.ts';
import { migrate } from '../../src/platform/database/migrate.ts';
import { migrateJobQueue } from '../../src/platform/jobs/job-queue.ts';
import { databaseUrl } from './database-url.ts';
import { freePort } from './free-port.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
    pgServer: 'external' | 'embedded';
  }
}

/** what tools (not suites) keep in the temp dir: tsx's and Node's compile caches */
const TOOL_CACHES = /^(tsx-\d+|node-compile-cache)$/;

export default async function setup(project: TestProject) {
  // the run's own temp dir, which the suites (forked after this) and their children inherit: what a
  // suite leaves there fails the run, and the whole dir goes at the end
  const runTmp = await mkdtemp(path.join(tmpdir(), 'sig-test-run-'));
  // open as /tmp is (sticky): the embedded PostgreSQL's tools run as their own user and read files here
  await chmod(runTmp, 0o1777);
  process.env.TMPDIR = runTmp;
  let embedded: EmbeddedPostgresHandle | undefined;
  let embeddedDir: string | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    embeddedDir = await mkdtemp(path.join(tmpdir(), 'sig-test-pg-'));
    embedded = await startEmbeddedPostgres({ dataDir: embeddedDir, port: await freePort() });
    adminUrl = embedded.url;
  }
  const template = `test_tpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${template}"`);
  await migrate(databaseUrl(adminUrl, template));
  // the job queue's schema too (graphile-worker migrates it itself on first use): a suite that
  // starts a worker or a gateway then finds it in place instead of building it again
  const templatePool = new pg.Pool({ connectionString: databaseUrl(adminUrl, template), max: 1 });
  try {
    await migrateJobQueue(templatePool);
  } finally {
    await templatePool.end();
  }
  // CREATE DATABASE ... TEMPLATE needs the template without sessions, and the pool's last one
  // closes a moment after end() resolves
  for (let waited = 0; waited < 5_000; waited += 20) {
    const { rows } = await admin.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
      [template],
    );
    if (rows[0]!.n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', template);
  project.provide('pgServer', embedded ? 'embedded' : 'external');

  return async () => {
    // drop the template and anything a crashed suite left behind from this run
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`test_%_${process.pid}_%`],
    );
    for (const { datname } of rows) {
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
    await admin.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    await admin.end();
    if (embedded) await embedded.stop();
    if (embeddedDir) await rm(embeddedDir, { recursive: true, force: true });
    const left = (await readdir(runTmp)).filter((name) => !TOOL_CACHES.test(name));
    await rm(runTmp, { recursive: true, force: true });
    if (left.length > 0)
      throw new Error(
        `suites left these in the temp dir (remove what a suite makes): ${left.join(', ')}`,
      );
  };
}
