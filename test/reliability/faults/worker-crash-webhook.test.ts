// Fault: a worker process is killed (SIGKILL) mid-scrape while its request has a callbackUrl.
// test/scrapes/lifecycle.test.ts proves the request is retried to its end; this proves the end is
// announced exactly once: one outbox row, one POST to the receiver, one webhook-id.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFixtureStorefronts,
  type FixtureStorefronts,
} from '../../scrapes/support/fixture-storefronts.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../scrapes/support/https-receiver.ts';
import { startScrapeHarness, type ScrapeHarness } from '../../scrapes/support/scrape-harness.ts';
import { pollUntil } from '../../support/poll.ts';
import { waitForOutboxDrained } from '../../support/outbox.ts';

const WORKER = fileURLToPath(new URL('../../../app/worker.ts', import.meta.url));
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

let fixtures: FixtureStorefronts;
let receiver: HttpsReceiver;
let harness: ScrapeHarness;
let env: Record<string, string>;

beforeAll(async () => {
  [fixtures, receiver] = await Promise.all([
    startFixtureStorefronts(),
    startHttpsReceiver('hooks.test', [200]),
  ]);
  env = {
    EGRESS_OVERRIDES: `${fixtures.overrides},hooks.test=https://127.0.0.1:${receiver.port}`,
    NODE_EXTRA_CA_CERTS: receiver.caFile,
    WEBHOOK_SIGNING_SECRET: SECRET,
  };
  harness = await startScrapeHarness({ env, worker: false });
});
afterAll(async () => {
  await harness?.close();
  await Promise.all([fixtures?.close(), receiver?.close()]);
});

describe('a worker killed mid-scrape', () => {
  it("sends the request's webhook exactly once, from the worker that finishes it", async () => {
    fixtures.hold('/products.json');
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
      env: {
        ...process.env,
        ...env,
        DATABASE_URL: harness.databaseUrl,
        LOG_LEVEL: 'silent',
        EGRESS_HOST_INTERVAL_MS: '0',
        EGRESS_TIMEOUT_MS: '60000',
        REDIS_URL: '',
        CHROMIUM_PATH: '',
      },
      stdio: 'ignore',
    });
    try {
      const { body } = await harness.post('/v1/scrapes', {
        domain: 'shop-a.test',
        callbackUrl: 'https://hooks.test/scrapes',
      });
      const id = body.id as string;
      await harness.waitFor(id, ['scraping'], 30_000);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      fixtures.release();
      const pool = harness.services.db.pool;
      const rowsOf = () =>
        pool
          .query(
            'SELECT id::text, status::text, attempts FROM webhook_deliveries WHERE scrape_request_id = $1',
            [id],
          )
          .then((r) => r.rows);
      expect(await rowsOf()).toEqual([]); // the killed worker never got to announce anything

      await harness.startWorker();
      expect((await harness.waitFor(id, ['done', 'failed'], 30_000)).status).toBe('done');
      const [delivery] = await pollUntil(rowsOf, (rows) => rows[0]?.status === 'delivered', 20_000);
      await waitForOutboxDrained(pool, id); // nothing is left that could deliver again

      expect(await rowsOf()).toEqual([{ id: delivery.id, status: 'delivered', attempts: 1 }]);
      const ours = receiver.received.filter((r) => JSON.parse(r.body).data.id === id);
      expect(ours).toHaveLength(1);
      expect(ours[0]!.headers['webhook-id']).toBe(delivery.id);
      expect(JSON.parse(ours[0]!.body).type).toBe('scrape.done');
    } finally {
      child.kill('SIGKILL');
      fixtures.release();
    }
  });
});
