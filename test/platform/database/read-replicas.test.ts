// Read routing against a real streaming replica (test/support/streaming-replica.ts): catalog reads
// (`db.read`) go to the replica while it is within the lag bound, to the primary while it lags past
// it or is down, and back to the replica once it catches up; a replica restart costs no read.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/platform/database/database.ts';
import { parseLsn, stalenessMs } from '../../../src/platform/database/read-replicas.ts';
import { createLogger } from '../../../src/platform/logger.ts';
import { skipWithout } from '../../support/skip-without.ts';
import {
  hasPostgresBinaries,
  startStreamingPair,
  type StreamingPair,
} from '../../support/streaming-replica.ts';

describe('WAL positions and staleness', () => {
  it('orders LSNs as the WAL does', () => {
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
  });

  it('bounds staleness by the newest primary sample the replica has replayed', () => {
    const samples = [
      { at: 1_000, lsn: 100n },
      { at: 2_000, lsn: 200n },
      { at: 3_000, lsn: 300n },
    ];
    expect(stalenessMs(samples, 300n, 3_050)).toBe(50);
    expect(stalenessMs(samples, 250n, 3_050)).toBe(1_050);
    expect(stalenessMs(samples, 100n, 3_050)).toBe(2_050);
    expect(stalenessMs(samples, 99n, 3_050)).toBeUndefined();
  });
});

const waitFor = async (
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
) => {
  for (
    const deadline = Date.now() + timeoutMs;
    !(await condition());
    await new Promise((r) => setTimeout(r, 25))
  ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
};

describe.skipIf(skipWithout(hasPostgresBinaries))(
  'catalog reads on a streaming replica (needs PostgreSQL binaries with pg_basebackup)',
  () => {
    const MAX_LAG_MS = 400;
    let pair: StreamingPair;
    let primary: pg.Client;
    let db: Database;
    const onReplica = async () =>
      (await db.read.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby')).rows[0]!
        .standby;
    const value = async () =>
      (await db.read.query<{ v: number }>('SELECT v FROM catalog_probe')).rows[0]!.v;

    beforeAll(async () => {
      pair = await startStreamingPair();
      primary = new pg.Client({ connectionString: pair.primaryUrl() });
      await primary.connect();
      await primary.query(
        'CREATE TABLE catalog_probe (v int); INSERT INTO catalog_probe VALUES (1)',
      );
      await pair.waitForReplay();
      db = await openDatabase({
        url: pair.primaryUrl(),
        readUrls: [pair.replicaUrl()],
        maxReplicaLagMs: MAX_LAG_MS,
        queryTimeoutMs: 5_000,
        logger: createLogger('silent'),
      });
    }, 120_000);
    afterAll(async () => {
      await db?.close();
      await primary?.end();
      await pair?.stop();
    });

    it('reads from the replica while it is fresh; writes and db.pool stay on the primary', async () => {
      expect(db.replicas!.status()).toEqual([
        expect.objectContaining({
          server: `127.0.0.1:${pair.replicaPort}/postgres`,
          serving: true,
        }),
      ]);
      expect(await onReplica()).toBe(true);
      expect(await value()).toBe(1);
      expect((await db.pool.query('SELECT pg_is_in_recovery() AS standby')).rows[0].standby).toBe(
        false,
      );
    });

    it('sends reads to the primary while the replica lags past the bound, and back once it caught up', async () => {
      // a second router with a bound no slow machine reaches: within it, the replica serves the stale row
      const patient = await openDatabase({
        url: pair.primaryUrl(),
        readUrls: [pair.replicaUrl()],
        maxReplicaLagMs: 120_000,
        queryTimeoutMs: 5_000,
        logger: createLogger('silent'),
      });
      try {
        await waitFor(
          'the patient router to serve from the replica',
          () => patient.replicas!.status()[0]!.serving,
        );
        await pair.pauseReplay();
        await primary.query('UPDATE catalog_probe SET v = 2');
        // judged after the write: behind the primary, but well within its bound
        await patient.replicas!.check();
        expect(patient.replicas!.status()[0]).toMatchObject({ serving: true });
        const patientRead = await patient.read.query<{ v: number; standby: boolean }>(
          'SELECT v, pg_is_in_recovery() AS standby FROM catalog_probe',
        );
        expect(patientRead.rows).toEqual([{ v: 1, standby: true }]);
      } finally {
        await patient.close();
      }
      await waitFor('the replica to stop serving', () => !db.replicas!.status()[0]!.serving);
      expect(db.replicas!.status()[0]).toMatchObject({
        serving: false,
        reason: `lags the primary by more than ${MAX_LAG_MS} ms`,
      });
      expect(await onReplica()).toBe(false);
      expect(await value()).toBe(2);

      await pair.resumeReplay();
      await waitFor('the replica to serve again', () => db.replicas!.status()[0]!.serving);
      expect(await onReplica()).toBe(true);
      expect(await value()).toBe(2);
    });

    it('answers every read while the replica restarts: the primary takes them', async () => {
      let reads = 0;
      let failures = 0;
      let stop = false;
      const reader = (async () => {
        while (!stop) {
          await value().then(
            () => reads++,
            () => failures++,
          );
        }
      })();
      await new Promise((r) => setTimeout(r, 200));
      await pair.stopReplica();
      await waitFor('the replica to be seen down', () => !db.replicas!.status()[0]!.serving);
      expect(db.replicas!.status()[0]).toMatchObject({ serving: false });
      const readsWhileDown = reads;
      await new Promise((r) => setTimeout(r, 300));
      expect(reads).toBeGreaterThan(readsWhileDown);
      await pair.startReplica();
      await waitFor('the replica to serve again', () => db.replicas!.status()[0]!.serving, 60_000);
      stop = true;
      await reader;
      expect(failures).toBe(0);
      expect(await onReplica()).toBe(true);
    }, 120_000);
  },
);
