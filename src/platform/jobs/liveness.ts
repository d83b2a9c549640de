// Crash safety for running jobs. graphile-worker 0.16 releases the lock of a job whose worker died
// only after 4 hours; we need minutes. While a job runs, its process holds a session advisory lock
// named after the job on a connection of its own. A process that dies loses its connection and so
// the lock; a sweep then finds jobs that are locked in the queue but whose advisory lock nobody
// holds, and unlocks them for another worker (the task is retried; its attempt was already counted).
import type pg from 'pg';
import type { WorkerUtils } from 'graphile-worker';
import { JOB_SCHEMA } from './job-queue.ts';

const lockKey = `hashtextextended('job-liveness:' || $1::text, 0)`;

/** Runs `work` while holding the job's liveness lock on a dedicated connection. */
export async function whileAlive<T>(pool: pg.Pool, jobId: string, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // a broken connection loses the lock: other workers may then take the job over, which tasks tolerate
  client.on('error', () => undefined);
  try {
    await client.query(`SELECT pg_advisory_lock(${lockKey})`, [jobId]);
    return await work();
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${lockKey})`, [jobId]).catch(() => undefined);
    client.release();
  }
}

/**
 * Unlocks jobs locked for longer than `graceMs` whose liveness lock is free: their worker is gone.
 * The grace covers the moment between the queue locking a job and its task taking the lock.
 * Returns the ids of the jobs released.
 */
export async function releaseOrphanedJobs(pool: pg.Pool, utils: WorkerUtils, graceMs: number): Promise<string[]> {
  const { rows } = await pool.query<{ id: string; locked_by: string }>(
    `SELECT id::text, locked_by FROM ${JOB_SCHEMA}.jobs
      WHERE locked_at IS NOT NULL AND locked_at < now() - make_interval(secs => $1::double precision / 1000)`,
    [graceMs],
  );
  const released: string[] = [];
  for (const job of rows) {
    const client = await pool.connect();
    try {
      const { rows: [probe] } = await client.query<{ free: boolean }>(`SELECT pg_try_advisory_lock(${lockKey}) AS free`, [job.id]);
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
