// The database `npm run keys` works on: the one the server uses. DATABASE_URL when set; otherwise
// the embedded PostgreSQL under DATA_DIR. A running server owns that cluster, so the command first
// connects to it (the port recorded in DATA_DIR or EMBEDDED_PG_PORT, password in DATA_DIR/postgres.password) and starts the cluster
// itself, for the command's duration only, when nothing answers there.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../src/platform/config.ts';
import { openDatabase, type Database } from '../../src/platform/database/database.ts';
import { clusterPort } from '../../src/platform/database/embedded-postgres.ts';
import {
  EMBEDDED_DATABASE,
  openStructuredStore,
} from '../../src/platform/database/structured-store.ts';
import type { Logger } from '../../src/platform/logger.ts';

export interface CliDatabase {
  database: Database;
  /** for the command's own output: which database it changed */
  description: string;
  close(): Promise<void>;
}

type CliConfig = Pick<
  Config,
  'DATABASE_URL' | 'DATA_DIR' | 'EMBEDDED_PG_PORT' | 'QUERY_TIMEOUT_MS'
>;

async function runningEmbedded(config: CliConfig, logger: Logger): Promise<Database | undefined> {
  let password: string;
  try {
    password = (
      await readFile(path.join(path.resolve(config.DATA_DIR), 'postgres.password'), 'utf8')
    ).trim();
  } catch {
    return undefined; // never created: nothing can be running
  }
  const url = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${await clusterPort(config.DATA_DIR, config.EMBEDDED_PG_PORT)}/${EMBEDDED_DATABASE}`;
  try {
    return await openDatabase({
      url,
      logger,
      queryTimeoutMs: config.QUERY_TIMEOUT_MS,
      backend: 'embedded-postgres',
      poolSize: 2,
    });
  } catch {
    return undefined;
  }
}

export async function openCliDatabase(config: CliConfig, logger: Logger): Promise<CliDatabase> {
  if (!config.DATABASE_URL) {
    const shared = await runningEmbedded(config, logger);
    if (shared) {
      return {
        database: shared,
        description: `the running server's embedded PostgreSQL (port ${await clusterPort(config.DATA_DIR, config.EMBEDDED_PG_PORT)}, data in ${config.DATA_DIR})`,
        close: () => shared.close(),
      };
    }
  }
  const store = await openStructuredStore(config, logger);
  return { database: store.database, description: store.description, close: () => store.close() };
}
