// The scheduler after a crash: a worker process killed in the middle of an observation leaves its
// job to another worker, which observes the store once more from the start; the observation is
// written exactly once (one log line, one set of change records), and the schedule goes on.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCatalogHarness, type CatalogHarness } from './support/catalog-harness.ts';

let h: CatalogHarness;

beforeAll(async () => {
  h = await startCatalogHarness({ worker: false });
});
afterAll(() => h?.close());

const startWorkerProcess = () =>
  spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('../../app/worker.ts', import.meta.url))],
    {
      env: {
        ...process.env,
        DATABASE_URL: h.databaseUrl,
        EGRESS_OVERRIDES: h.fixtures.overrides,
        LOG_LEVEL: 'silent',
        EGRESS_HOST_INTERVAL_MS: '0',
        EGRESS_TIMEOUT_MS: '60000',
        REDIS_URL: '',
        CATALOG_CONCURRENCY: '4',
        CATALOG_WORKER_CONCURRENCY: '2',
      },
      stdio: 'ignore',
    },
  );

describe('a worker killed mid-observation', () => {
  it('leaves the observation to another worker, which writes it exactly once', async () => {
    const child = startWorkerProcess();
    try {
      await h.offer(['changing.test']);
      const { store_id: storeId } = await h.waitForRow<{ store_id: number }>(
        `SELECT store_id FROM catalog_candidates WHERE domain = 'changing.test' AND status = 'accepted'`,
        [],
        60_000,
      );
      h.fixtures.setVersion('changing.test', 2);
      h.fixtures.hold('changing.test/products.json');
      const before = await h.lastLogId();
      const requests = h.fixtures.requests.length;
      // due now, by the database's own clock (the worker process reads the system clock)
      await h.pool.query('UPDATE observation_schedule SET next_at = now() WHERE store_id = $1', [
        storeId,
      ]);
      await h.tick();
      const deadline = Date.now() + 30_000;
      while (
        !h.fixtures.requests
          .slice(requests)
          .some((r) => r.startsWith('changing.test/products.json'))
      ) {
        if (Date.now() > deadline) throw new Error('the observation never reached products.json');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      h.fixtures.release();

      await h.startWorker();
      expect(await h.nextObservation('changing.test', before)).toMatchObject({
        trigger: 'scheduled',
        outcome: 'ok',
        changes: 6,
      });
      // once nothing is queued, claimed or running, a second observation of it could only be in the log
      await h.settled();
      const { rows: lines } = await h.pool.query(
        `SELECT outcome FROM observation_log WHERE domain = 'changing.test' AND id > $1`,
        [before],
      );
      expect(lines).toEqual([{ outcome: 'ok' }]);
      const { rows: changes } = await h.pool.query(
        'SELECT change_type FROM change_records WHERE store_id = $1',
        [storeId],
      );
      expect(changes).toHaveLength(6);
    } finally {
      child.kill('SIGKILL');
      h.fixtures.release();
    }
  });
});
