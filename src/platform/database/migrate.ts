// Applies prisma/migrations/<stamp>_<name>/migration.sql in order. Prisma Migrate needs a schema
// engine binary we cannot download, so this is our own small migrator. It records each migration
// in Prisma's own `_prisma_migrations` table (same columns, sha256 checksum of the file), so
// `prisma migrate deploy` elsewhere sees them as applied. Each migration runs in a transaction;
// a session advisory lock makes two processes starting at once take turns.
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from '../logger.ts';
import { transactionOn } from './transaction.ts';

export const MIGRATIONS_DIR = fileURLToPath(
  new URL('../../../prisma/migrations/', import.meta.url),
);
/** arbitrary constant: the advisory lock key all our processes agree on */
const MIGRATION_LOCK_KEY = 72_707_001;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

export async function migrate(
  connectionString: string,
  options: { dir?: string; logger?: Logger } = {},
): Promise<MigrateResult> {
  const migrations = await readMigrations(options.dir);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`
      CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
        "id" VARCHAR(36) PRIMARY KEY NOT NULL,
        "checksum" VARCHAR(64) NOT NULL,
        "finished_at" TIMESTAMPTZ,
        "migration_name" VARCHAR(255) NOT NULL,
        "logs" TEXT,
        "rolled_back_at" TIMESTAMPTZ,
        "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "applied_steps_count" INTEGER NOT NULL DEFAULT 0
      )`);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations"
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    const applied: string[] = [];
    for (const m of migrations) {
      const recorded = done.get(m.name);
      if (recorded !== undefined) {
        if (recorded !== m.checksum) {
          throw new Error(
            `migration ${m.name} was changed after it was applied (checksum differs)`,
          );
        }
        continue;
      }
      options.logger?.info({ migration: m.name }, 'applying migration');
      try {
        await transactionOn(client, async () => {
          await client.query(m.sql);
          await client.query(
            `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
             VALUES ($1, $2, now(), $3, 1)`,
            [randomUUID(), m.checksum, m.name],
          );
        });
      } catch (error) {
        throw new Error(`migration ${m.name} failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
      applied.push(m.name);
    }
    return { applied, alreadyApplied: done.size };
  } finally {
    await client
      .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
      .catch(() => undefined);
    await client.end();
  }
}
