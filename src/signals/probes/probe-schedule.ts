// Durable probe jobs. A probe row and its job are written in the caller's transaction, so a probe
// exists exactly when its job does. Scheduled probes: every tracked watch has one pending
// `signal-probe-tick` job under the job key signal-schedule:<id> (graphile-worker keeps at most one
// pending job per key); each tick queues a probe and the next tick, in one transaction, before the
// probe runs, so a failing probe never breaks the schedule. Pausing or deleting removes the tick.
import type { Queryable } from '../../platform/jobs/job-queue.ts';
import { enqueueJob, JOB_SCHEMA } from '../../platform/jobs/job-queue.ts';
import type { ProbeKind } from './probe-record.ts';

export const PROBE_TASK = 'signal-probe';
export const PROBE_TICK_TASK = 'signal-probe-tick';
/** attempts of a probe job; only faults of ours are retried (a storefront that fails ends the probe) */
export const PROBE_MAX_ATTEMPTS = 3;

const scheduleKey = (signalId: number) => `signal-schedule:${signalId}`;

/** Inserts a queued probe of `signalId` and its job; returns the probe id. */
export async function queueProbe(
  db: Queryable,
  signalId: number,
  kind: ProbeKind,
  now: Date,
): Promise<number> {
  const {
    rows: [probe],
  } = await db.query<{ id: number }>(
    `INSERT INTO signal_probes (signal_id, kind, status, created_at) VALUES ($1, $2, 'queued', $3) RETURNING id`,
    [signalId, kind, now],
  );
  await enqueueJob(
    db,
    PROBE_TASK,
    { probeId: probe!.id },
    { jobKey: `signal-probe:${probe!.id}`, maxAttempts: PROBE_MAX_ATTEMPTS },
  );
  return probe!.id;
}

/** (Re)schedules the watch's next scheduled probe at `at`, replacing any pending one. */
export async function scheduleNextProbe(db: Queryable, signalId: number, at: Date): Promise<void> {
  await enqueueJob(
    db,
    PROBE_TICK_TASK,
    { signalId },
    { jobKey: scheduleKey(signalId), runAt: at, maxAttempts: PROBE_MAX_ATTEMPTS },
  );
  await db.query('UPDATE signals SET next_probe_at = $2 WHERE id = $1', [signalId, at]);
}

/** Stops the watch's scheduled probes (paused or deleted watches). */
export async function unscheduleProbes(db: Queryable, signalId: number): Promise<void> {
  await db.query(`SELECT ${JOB_SCHEMA}.remove_job($1)`, [scheduleKey(signalId)]);
  await db.query('UPDATE signals SET next_probe_at = NULL WHERE id = $1', [signalId]);
}

export const probeIntervalMs = (minutes: number) => minutes * 60_000;
