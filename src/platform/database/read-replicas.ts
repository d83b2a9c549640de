// Read routing: catalog reads go to PostgreSQL streaming replicas (DATABASE_READ_URL), everything
// else to the primary. Features choose by the pool they use: `db.read` for reads that may lag the
// primary by up to DATABASE_READ_MAX_LAG_MS (the catalog: stores, products, apps, changes,
// history, analytics), `db.pool` / `db.prisma` for writes and for reads that must see a write just
// made (keys just minted, a scrape or watch just created, a probe just finished, anything of an
// account). With no replica configured `db.read` is the primary pool itself.
//
// How stale a replica is comes from positions in the WAL, not from clocks: every check reads the
// primary's current WAL position and keeps it with the time it was read; a replica that has
// replayed position P holds everything the primary had at the latest sample not past P, so its
// staleness is at most now minus that sample's time. A replica whose staleness passes the bound,
// or that does not answer, serves nothing until a check finds it fresh again; while no replica is
// fresh, reads go to the primary. A read that fails on a replica because the replica went away
// (restart, network) or cancelled it for a conflict with recovery is run once more on the primary,
// so a replica restart is invisible to callers.
import pg from 'pg';
import type { Logger } from '../logger.ts';
import { isConnectionFailure } from './database-errors.ts';

/** How often replicas are checked: a quarter of the bound, between 100 ms and 1 s. */
export const checkIntervalFor = (maxLagMs: number) =>
  Math.min(1_000, Math.max(100, Math.floor(maxLagMs / 4)));

export interface ReplicaStatus {
  /** host:port/database, without credentials */
  server: string;
  /** serving reads now: answering and within the lag bound */
  serving: boolean;
  /** upper bound of its staleness at the last check, ms; undefined when it did not answer */
  lagMs?: number;
  /** why it does not serve */
  reason?: string;
}

interface Replica {
  server: string;
  pool: pg.Pool;
  serving: boolean;
  lagMs?: number;
  reason?: string;
}

interface WalSample {
  at: number;
  lsn: bigint;
}

/** '16/B374D848' → a number that orders like the WAL */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/**
 * Staleness bound of a replica that replayed up to `replayed`, from samples of the primary's WAL
 * position (oldest first): now minus the newest sample the replica has fully replayed (writes
 * committed after that sample may be missing on it). Undefined when it is behind every sample kept.
 */
export function stalenessMs(
  samples: readonly WalSample[],
  replayed: bigint,
  now: number,
): number | undefined {
  for (let i = samples.length - 1; i >= 0; i--) {
    if (samples[i]!.lsn <= replayed) return now - samples[i]!.at;
  }
  return undefined;
}

/** A read failure that the primary may answer instead: the replica is unreachable or cancelled the statement for recovery. */
export function isReplicaFault(error: unknown): boolean {
  if (isConnectionFailure(error)) return true;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  // 40001 on a standby: "canceling statement due to conflict with recovery"
  return (
    code === '40001' && typeof message === 'string' && message.includes('conflict with recovery')
  );
}

export interface ReadReplicasOptions {
  urls: readonly string[];
  primary: pg.Pool;
  poolConfig: pg.PoolConfig;
  maxLagMs: number;
  logger: Logger;
  /** override of checkIntervalFor(maxLagMs), for tests */
  checkIntervalMs?: number;
}

export class ReadReplicas {
  readonly maxLagMs: number;
  readonly checkIntervalMs: number;
  private readonly replicas: Replica[];
  private readonly primary: pg.Pool;
  private readonly log: Logger;
  private readonly samples: WalSample[] = [];
  private readonly windowMs: number;
  private next = 0;
  private timer?: NodeJS.Timeout;
  private checking?: Promise<void>;

  /** the pool catalog reads use: a fresh replica when one is, else the primary */
  readonly read: Pick<pg.Pool, 'query'>;

  constructor(options: ReadReplicasOptions) {
    this.maxLagMs = options.maxLagMs;
    this.checkIntervalMs = options.checkIntervalMs ?? checkIntervalFor(options.maxLagMs);
    this.primary = options.primary;
    this.log = options.logger.child({ component: 'read-replicas' });
    // samples older than twice the bound are never needed to tell fresh from stale
    this.windowMs = Math.max(2 * options.maxLagMs, 2_000);
    this.replicas = options.urls.map((url) => {
      const pool = new pg.Pool({ ...options.poolConfig, connectionString: url });
      pool.on('error', (error: Error) =>
        this.log.warn(
          { server: describeServer(url), err: { message: error.message } },
          'idle replica connection failed',
        ),
      );
      pool.on('connect', (client) => client.on('error', () => undefined));
      // a replica serves nothing until its first check says it is fresh
      return { server: describeServer(url), pool, serving: false, reason: 'not checked yet' };
    });
    const query = (async (...args: Parameters<pg.Pool['query']>) => {
      const replica = this.pick();
      if (!replica) return (this.primary.query as (...a: unknown[]) => unknown)(...args);
      try {
        return await (replica.pool.query as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (error) {
        if (!isReplicaFault(error)) throw error;
        this.setServing(replica, false, undefined, 'a read failed on it');
        return (this.primary.query as (...a: unknown[]) => unknown)(...args);
      }
    }) as pg.Pool['query'];
    this.read = { query };
  }

  /**
   * How long after a commit on the primary every serving replica has surely replayed it: a replica
   * serves while its staleness is within the bound, as measured at most one check ago.
   */
  get replayBoundMs(): number {
    return this.maxLagMs + this.checkIntervalMs;
  }

  /** Checks every replica now, then every interval. Resolves after the first check. */
  async start(): Promise<void> {
    await this.check();
    this.timer = setInterval(() => void this.check(), this.checkIntervalMs);
    this.timer.unref();
  }

  status(): ReplicaStatus[] {
    return this.replicas.map(({ server, serving, lagMs, reason }) => ({
      server,
      serving,
      ...(lagMs === undefined ? {} : { lagMs }),
      ...(serving ? {} : { reason }),
    }));
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.checking?.catch(() => undefined);
    await Promise.all(this.replicas.map((r) => r.pool.end().catch(() => undefined)));
  }

  /** the next serving replica, round robin; undefined = the primary */
  private pick(): Replica | undefined {
    for (let tried = 0; tried < this.replicas.length; tried++) {
      const replica = this.replicas[this.next++ % this.replicas.length]!;
      if (replica.serving) return replica;
    }
    return undefined;
  }

  /** One check: the primary's WAL position, then each replica's replayed position against the samples. */
  check(): Promise<void> {
    this.checking ??= this.checkOnce().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async checkOnce(): Promise<void> {
    try {
      const {
        rows: [row],
      } = await this.primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      const now = Date.now();
      this.samples.push({ at: now, lsn: parseLsn(row!.lsn) });
      while (this.samples.length > 1 && this.samples[0]!.at < now - this.windowMs)
        this.samples.shift();
    } catch (error) {
      // without the primary's position no replica can be judged; they keep their last verdict
      // until the primary answers (reads fail there too meanwhile)
      this.log.debug(
        { err: { message: (error as Error).message } },
        'replica check: the primary did not answer',
      );
      return;
    }
    await Promise.all(this.replicas.map((replica) => this.checkReplica(replica)));
  }

  private async checkReplica(replica: Replica): Promise<void> {
    try {
      const {
        rows: [row],
      } = await replica.pool.query<{ standby: boolean; replayed: string | null }>(
        'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed',
      );
      // a server that is not a standby (the primary itself behind another address) is never behind
      if (!row!.standby || row!.replayed === null) return this.setServing(replica, true, 0);
      const lagMs = stalenessMs(this.samples, parseLsn(row!.replayed), Date.now());
      if (lagMs !== undefined && lagMs <= this.maxLagMs)
        return this.setServing(replica, true, lagMs);
      this.setServing(replica, false, lagMs, `lags the primary by more than ${this.maxLagMs} ms`);
    } catch (error) {
      this.setServing(replica, false, undefined, 'does not answer');
      this.log.debug(
        { server: replica.server, err: { message: (error as Error).message } },
        'replica check failed',
      );
    }
  }

  private setServing(
    replica: Replica,
    serving: boolean,
    lagMs: number | undefined,
    reason?: string,
  ): void {
    if (replica.serving !== serving) {
      if (serving)
        this.log.info({ server: replica.server, lagMs }, 'read replica serves catalog reads');
      else
        this.log.warn(
          { server: replica.server, lagMs, reason },
          'read replica stopped serving: its reads go to the primary',
        );
    }
    replica.serving = serving;
    replica.lagMs = lagMs;
    replica.reason = reason;
  }
}

/** host:port/database without credentials, safe for logs and health */
export function describeServer(connectionString: string): string {
  const url = new URL(connectionString);
  return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
}
