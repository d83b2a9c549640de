// One request in flight per host. A request to a storefront host first takes the host's turn: in
// this process a queue per host (first come, first served), and across processes a PostgreSQL
// session advisory lock keyed by the host name, so every worker process sharing the database (the
// embedded default included) waits for the others. The lock lives on one session of the gate's
// own, so a process that dies releases its hosts with its connection.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { EgressError } from './egress-error.ts';

/** Releases a host's turn. */
export type LeaveHost = () => void;

export interface HostGate {
  /** Resolves once this caller holds `host`'s one request in flight; waits at most `maxWaitMs`. */
  enter(host: string, maxWaitMs: number): Promise<LeaveHost>;
}

/** The in-process half: a FIFO queue per host. */
export class LocalHostGate implements HostGate {
  private readonly tails = new Map<string, Promise<void>>();

  async enter(host: string): Promise<LeaveHost> {
    const previous = this.tails.get(host) ?? Promise.resolve();
    let leave!: () => void;
    const mine = new Promise<void>((resolve) => (leave = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(host, tail);
    await previous;
    return () => {
      leave();
      if (this.tails.get(host) === tail) this.tails.delete(host);
    };
  }
}

const LOCK_KEY = "hashtextextended('crawler-host:' || $1, 0)";

/**
 * The cross-process gate: the in-process queue, then the host's advisory lock on the gate's own
 * session (opened on first use, closed when no host has been held for a while).
 */
export class DatabaseHostGate implements HostGate {
  private readonly local = new LocalHostGate();
  private readonly pool: pg.Pool;
  private session: Promise<pg.PoolClient> | null = null;
  private held = 0;
  /** the session's statements, one after another (a pg client runs one query at a time) */
  private statements: Promise<unknown> = Promise.resolve();
  /** one listener, taken off when the session goes back to the pool, which hands it out again */
  private readonly onSessionError = (error: unknown) => this.dropSession(error);

  constructor(
    url: string,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    // one connection, given back (and closed after a second idle) whenever no host is held
    this.pool = new pg.Pool({
      connectionString: url,
      max: 1,
      idleTimeoutMillis: 1_000,
      allowExitOnIdle: true,
    });
    this.pool.on('error', onError);
  }

  async enter(host: string, maxWaitMs: number): Promise<LeaveHost> {
    const deadline = Date.now() + maxWaitMs;
    const leaveLocal = await this.local.enter(host);
    this.held++;
    try {
      for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
        if (await this.tryLock(host)) break;
        if (Date.now() > deadline) {
          throw new EgressError(
            'timeout',
            `${host} stayed busy with another request of ours for ${Math.round(maxWaitMs / 1000)} s`,
          );
        }
        await sleep(pause * (0.5 + Math.random()));
      }
    } catch (error) {
      this.leaveSession();
      leaveLocal();
      throw error;
    }
    return () => {
      this.unlock(host)
        .catch(this.onError)
        .finally(() => {
          this.leaveSession();
          leaveLocal();
        });
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async tryLock(host: string): Promise<boolean> {
    const rows = await this.run<{ locked: boolean }>(
      `SELECT pg_try_advisory_lock(${LOCK_KEY}) AS locked`,
      host,
    );
    return rows[0]!.locked;
  }

  private async unlock(host: string): Promise<void> {
    await this.run(`SELECT pg_advisory_unlock(${LOCK_KEY})`, host);
  }

  private run<R extends object>(text: string, host: string): Promise<R[]> {
    const result = this.statements.then(async () => {
      const session = await this.sessionClient();
      try {
        return (await session.query<R>(text, [host])).rows;
      } catch (error) {
        this.dropSession(error);
        throw error;
      }
    });
    this.statements = result.catch(() => undefined);
    return result;
  }

  private sessionClient(): Promise<pg.PoolClient> {
    if (!this.session) {
      const opening = this.pool.connect();
      opening.then(
        (client) => client.on('error', this.onSessionError),
        () => {},
      );
      this.session = opening;
      opening.catch(() => {
        if (this.session === opening) this.session = null;
      });
    }
    return this.session;
  }

  /** A lost session lost its locks with it: the next request opens a new one. */
  private dropSession(error: unknown): void {
    const session = this.session;
    this.session = null;
    session?.then(
      (client) => client.release(error instanceof Error ? error : true),
      () => {},
    );
  }

  private leaveSession(): void {
    this.held--;
    if (this.held > 0 || !this.session) return;
    // nothing held: the session goes back to the pool (its idle timeout closes it)
    const session = this.session;
    this.session = null;
    session.then(
      (client) => {
        client.off('error', this.onSessionError);
        client.release();
      },
      () => {},
    );
  }
}
