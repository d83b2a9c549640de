// Crash safety for running jobs. graphile-worker 0.16 releases the lock of a job whose worker died
// only after 4 hours; we need minutes. While a job runs, its process holds a session advisory lock
// named after the job, on one connection the process keeps for these locks. A process that dies
// loses its connection and so the locks; a sweep then finds jobs that are locked in the queue but
// whose advisory lock nobody holds, and unlocks them for another worker (the task is retried; its
// attempt was already counted).
import type pg from 'pg';
import type { WorkerUtils } from 'graphile-worker';
import { JOB_SCHEMA } from './job-queue.ts';

const lockKey = `hashtextextended('job-liveness:' || $1::text, 0)`;

/**
 * The liveness locks of the jobs one worker process runs, all held by one session of its own: a
 * process that dies loses that session and with it every lock. One connection however many jobs
 * run at once. Should that connection break while the process lives, the locks are taken again on
 * a new one (a job another worker took over meanwhile keeps running here too: tasks tolerate a
 * second run, which is what a takeover means anyway).
 */
export class LivenessLocks {
  private session: Promise<pg.PoolClient> | undefined;
  private readonly held = new Set<string>();
  /** once closed, no session is opened again (a job ending late finds its lock gone with the session) */
  private closed = false;
  /** the session's statement in progress: the next one waits for it (see statement()) */
  private turn: Promise<unknown> = Promise.resolve();
  /**
   * The jobs whose lock a session holds. A lock is taken once per session: advisory locks count, and
   * a job that started while the session was connecting was locked by connect() and then again by
   * its own whileAlive, so its one unlock left the lock held for as long as the process lived.
   */
  private readonly lockedBy = new WeakMap<pg.PoolClient, Set<string>>();

  constructor(private readonly pool: pg.Pool) {}

  /** Runs `work` while holding the liveness lock of job `jobId`. */
  async whileAlive<T>(jobId: string, work: () => Promise<T>): Promise<T> {
    this.held.add(jobId);
    if (!this.closed) await this.tryLock(await this.client(), jobId);
    try {
      return await work();
    } finally {
      this.held.delete(jobId);
      const client = this.closed ? undefined : await this.client().catch(() => undefined);
      if (client && this.lockedOn(client).delete(jobId)) {
        await this.statement(client, `SELECT pg_advisory_unlock(${lockKey})`, [jobId]).catch(
          () => undefined,
        );
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const session = this.session;
    this.session = undefined;
    (await session?.catch(() => undefined))?.release();
  }

  /**
   * One statement on the shared session, after the ones asked for before it. Every running job
   * locks and unlocks on this one connection; pg deprecates queueing a query on a client that is
   * still executing one (pg 9 removes it), so the session's turn is kept here.
   */
  private statement<R extends pg.QueryResultRow>(
    client: pg.PoolClient,
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> {
    const result = this.turn.then(() => client.query<R>(text, values));
    this.turn = result.catch(() => undefined);
    return result;
  }

  private lockedOn(client: pg.PoolClient): Set<string> {
    let locked = this.lockedBy.get(client);
    if (!locked) this.lockedBy.set(client, (locked = new Set()));
    return locked;
  }

  private client(): Promise<pg.PoolClient> {
    this.session ??= this.connect();
    return this.session;
  }

  private async connect(): Promise<pg.PoolClient> {
    const client = await this.pool.connect().catch((error: unknown) => {
      this.session = undefined;
      throw error;
    });
    client.on('error', () => {
      // the next lock or unlock opens a new session, which takes the locks of running jobs again
      this.session = undefined;
      client.release(true);
    });
    for (const jobId of this.held) await this.tryLock(client, jobId);
    return client;
  }

  /**
   * Takes a job's lock without ever blocking the shared session: a sweep probing the lock holds it
   * for an instant, so a busy lock is retried briefly; one held for longer belongs to another
   * worker running the same job (a takeover), and this run goes on without it.
   */
  private async tryLock(client: pg.PoolClient, jobId: string): Promise<void> {
    const locked = this.lockedOn(client);
    for (let attempt = 0; attempt < 20; attempt++) {
      if (locked.has(jobId)) return;
      const { rows } = await this.statement<{ locked: boolean }>(
        client,
        `SELECT pg_try_advisory_lock(${lockKey}) AS locked`,
        [jobId],
      );
      if (rows[0]?.locked) {
        locked.add(jobId);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Unlocks jobs locked for longer than `graceMs` whose liveness lock is free: their worker is gone.
 * The grace covers the moment between the queue locking a job and its task taking the lock.
 * Returns the ids of the jobs released.
 */
export async function releaseOrphanedJobs(
  pool: pg.Pool,
  utils: WorkerUtils,
  graceMs: number,
): Promise<string[]> {
  const { rows } = await pool.query<{ id: string; locked_by: string }>(
    `SELECT id::text, locked_by FROM ${JOB_SCHEMA}.jobs
      WHERE locked_at IS NOT NULL AND locked_at < now() - make_interval(secs => $1::double precision / 1000)`,
    [graceMs],
  );
  const released: string[] = [];
  for (const job of rows) {
    const client = await pool.connect();
    try {
      const {
        rows: [probe],
      } = await client.query<{ free: boolean }>(`SELECT pg_try_advisory_lock(${lockKey}) AS free`, [
        job.id,
      ]);
      if (!probe?.free) continue;
      await client.query(`SELECT pg_advisory_unlock(${lockKey})`, [job.id]);
      // a graphile-worker worker runs one job at a time: unlocking its id releases exactly this job
      await utils.forceUnlockWorkers([job.locked_by]);
      released.push(job.id);
    } finally {
      client.release();
    }
  }
  return released;
}
