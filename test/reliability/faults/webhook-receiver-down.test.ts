// Fault: the webhook receiver is down (its port resets every connection) when a scrape ends, and comes
// back a few seconds later. The delivery is retried from the outbox with backoff and reaches the
// receiver exactly once: one request, one webhook-id, no delivery job left behind.
// (test/scrapes/webhooks.test.ts covers a receiver that answers 500; this one is not there at all.)
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFixtureStorefronts,
  type FixtureStorefronts,
} from '../../scrapes/support/fixture-storefronts.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../scrapes/support/https-receiver.ts';
import { startScrapeHarness, type ScrapeHarness } from '../../scrapes/support/scrape-harness.ts';
import { pollUntil } from '../../support/poll.ts';
import { createTcpGate, type TcpGate } from '../support/tcp-gate.ts';
import { waitForOutboxDrained } from '../../support/outbox.ts';

let fixtures: FixtureStorefronts;
let receiver: HttpsReceiver;
let gate: TcpGate;
let harness: ScrapeHarness;

beforeAll(async () => {
  [fixtures, receiver] = await Promise.all([
    startFixtureStorefronts(),
    startHttpsReceiver('hooks.test', [200]),
  ]);
  gate = await createTcpGate(receiver.port); // created down
  harness = await startScrapeHarness({
    env: {
      EGRESS_OVERRIDES: `${fixtures.overrides},hooks.test=https://127.0.0.1:${gate.port}`,
      NODE_EXTRA_CA_CERTS: receiver.caFile,
      WEBHOOK_SIGNING_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
      WEBHOOK_MAX_ATTEMPTS: '6',
    },
  });
});
afterAll(async () => {
  await harness?.close();
  await gate?.close();
  await Promise.all([fixtures?.close(), receiver?.close()]);
});

describe('a webhook receiver that is down for a while', () => {
  it('gets the event once it is back: retried, delivered exactly once', async () => {
    const { body } = await harness.post('/v1/scrapes', {
      domain: 'shop-a.test',
      callbackUrl: 'https://hooks.test/scrapes',
    });
    const id = body.id as string;
    await harness.waitFor(id, ['done']);

    const pool = harness.services.db.pool;
    const delivery = () =>
      pool
        .query(
          'SELECT id::text, status::text, attempts, last_error FROM webhook_deliveries WHERE scrape_request_id = $1',
          [id],
        )
        .then((r) => r.rows);
    // two attempts cut off (the second after graphile-worker's e^1 s backoff), then the receiver returns
    const refused = await pollUntil(delivery, (rows) => rows[0]?.attempts >= 2, 20_000);
    expect(refused).toEqual([
      {
        id: expect.any(String),
        status: 'pending',
        attempts: 2,
        last_error: 'hooks.test: ECONNRESET',
      },
    ]);
    expect(receiver.received).toHaveLength(0);
    await gate.up();

    // the third attempt comes e^2 s after the second
    await pollUntil(
      async () => receiver.received.length,
      (n) => n >= 1,
      20_000,
    );
    const [delivered] = await pollUntil(delivery, (rows) => rows[0]?.status === 'delivered', 5_000);
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 3 });
    // the task marks the delivery delivered, then graphile-worker deletes the job once the task returns
    const leftJobs = await pollUntil(
      () =>
        pool
          .query(`SELECT id FROM graphile_worker.jobs WHERE key = $1`, [`webhook:${delivered.id}`])
          .then((r) => r.rows),
      (rows) => rows.length === 0,
      5_000,
    );
    expect(leftJobs).toEqual([]);
    await waitForOutboxDrained(pool, id); // nothing is left that could deliver again
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers['webhook-id']).toBe(delivered.id);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      type: 'scrape.done',
      data: { id, status: 'done' },
    });
  });
});
