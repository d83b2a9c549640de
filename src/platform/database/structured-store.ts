// Opens the structured store the configuration asks for: the PostgreSQL at DATABASE_URL, or, when
// none is configured, an embedded PostgreSQL with its data under DATA_DIR (the zero-setup default).
// Either way the schema is migrated before the first query.
import pg from 'pg';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { openDatabase, type Database } from './database.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded-postgres.ts';
import { migrate } from './migrate.ts';

/** the database inside the embedded cluster that holds the store */
export const EMBEDDED_DATABASE = 'store_intelligence';

export interface StructuredStore {
  database: Database;
  /** present when this process started the embedded PostgreSQL (and so must stop it) */
  embedded?: EmbeddedPostgresHandle;
  /** for the start-up log, e.g. "embedded PostgreSQL 127.0.0.1:39359 (data in .data/postgres)" */
  description: string;
  /** closes the connections, then stops the embedded cluster if there is one */
  close(): Promise<void>;
  /** why the structured store cannot serve right now (the embedded cluster restarting), if known */
  downReason?: () => string | undefined;
}

type StoreConfig = Pick<
  Config,
  'DATABASE_URL' | 'DATA_DIR' | 'EMBEDDED_PG_PORT' | 'QUERY_TIMEOUT_MS'
> &
  Partial<Pick<Config, 'DATABASE_READ_URL' | 'DATABASE_READ_MAX_LAG_MS'>>;

export interface OpenStructuredStoreOptions {
  /** route catalog reads to DATABASE_READ_URL's replicas (the gateway); processes that serve no reads leave them closed */
  readReplicas?: boolean;
}

export async function openStructuredStore(
  config: StoreConfig,
  logger: Logger,
  options: OpenStructuredStoreOptions = {},
): Promise<StructuredStore> {
  if (config.DATABASE_URL) {
    await migrate(config.DATABASE_URL, { logger });
    const readUrls = (options.readReplicas && config.DATABASE_READ_URL) || [];
    const database = await openDatabase({
      url: config.DATABASE_URL,
      logger,
      queryTimeoutMs: config.QUERY_TIMEOUT_MS,
      readUrls,
      maxReplicaLagMs: config.DATABASE_READ_MAX_LAG_MS,
    });
    const replicas = readUrls.length
      ? `, reads on ${readUrls.map(describeServer).join(', ')} within ${config.DATABASE_READ_MAX_LAG_MS} ms`
      : '';
    return {
      database,
      description: `PostgreSQL ${describeServer(config.DATABASE_URL)}${replicas}`,
      close: () => database.close(),
    };
  }

  const embedded = await startEmbeddedPostgres({
    dataDir: config.DATA_DIR,
    port: config.EMBEDDED_PG_PORT,
    logger,
  });
  try {
    const url = await ensureDatabase(embedded.url, EMBEDDED_DATABASE);
    await migrate(url, { logger });
    const database = await openDatabase({
      url,
      logger,
      queryTimeoutMs: config.QUERY_TIMEOUT_MS,
      backend: 'embedded-postgres',
      downReason: embedded.downReason,
    });
    return {
      database,
      embedded,
      description: `embedded PostgreSQL ${describeServer(url)} (data in ${config.DATA_DIR}${embedded.created ? ', created now' : ''})`,
      async close() {
        await database.close();
        await embedded.stop();
      },
      downReason: embedded.downReason,
    };
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}

/** Creates `name` on the server of `serverUrl` unless it exists; returns its connection string. */
async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** host:port/database without credentials, safe for logs */
function describeServer(connectionString: string): string {
  const url = new URL(connectionString);
  return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
}
