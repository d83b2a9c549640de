// scrape.done / scrape.failed: POSTed once per request end from the outbox, signed per Standard
// Webhooks, retried while the receiver fails, over TLS that trusts NODE_EXTRA_CA_CERTS only.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureStorefronts, type FixtureStorefronts } from './support/fixture-storefronts.ts';
import { startHttpsReceiver, type HttpsReceiver } from './support/https-receiver.ts';
import { startScrapeHarness, type ScrapeHarness } from './support/scrape-harness.ts';
import { waitForOutboxDrained } from '../support/outbox.ts';
import { enqueueJob } from '../../src/platform/jobs/job-queue.ts';
import { DELIVER_WEBHOOK_TASK } from '../../src/platform/jobs/webhook-task.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
let fixtures: FixtureStorefronts;
let receiver: HttpsReceiver;
let untrusted: HttpsReceiver;
let harness: ScrapeHarness;

const until = async (condition: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

beforeAll(async () => {
  fixtures = await startFixtureStorefronts({ alsoShopA: ['rerun.test'] });
  // fails once, then accepts: the event must arrive twice with one webhook-id, then never again
  receiver = await startHttpsReceiver('hooks.test', [500, 200]);
  // a receiver whose CA is not trusted: TLS must fail, never fall back to trusting it
  untrusted = await startHttpsReceiver('untrusted.test', [200]);
  harness = await startScrapeHarness({
    env: {
      EGRESS_OVERRIDES: `${fixtures.overrides},hooks.test=https://127.0.0.1:${receiver.port},untrusted.test=https://127.0.0.1:${untrusted.port}`,
      NODE_EXTRA_CA_CERTS: receiver.caFile,
      WEBHOOK_SIGNING_SECRET: SECRET,
      WEBHOOK_MAX_ATTEMPTS: '2',
    },
  });
});
afterAll(async () => {
  await harness?.close();
  await Promise.all([fixtures?.close(), receiver?.close(), untrusted?.close()]);
});

describe('webhooks', () => {
  it('posts scrape.done once, signed, after retrying a failing receiver', async () => {
    const { body } = await harness.post('/v1/scrapes', {
      domain: 'shop-a.test',
      callbackUrl: 'https://hooks.test/scrapes',
    });
    const id = body.id as string;
    await harness.waitFor(id, ['done']);
    await until(() => receiver.received.length >= 2);
    // nothing is left that could deliver a third time
    await waitForOutboxDrained(harness.services.db.pool, id);

    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received;
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    const event = new Webhook(SECRET).verify(second!.body, second!.headers) as Record<string, any>;
    expect(event).toMatchObject({
      type: 'scrape.done',
      data: { id, domain: 'shop-a.test', status: 'done', storeUrl: '/v1/stores/shop-a.test' },
    });
    expect(() =>
      new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(
        second!.body,
        second!.headers,
      ),
    ).toThrow();

    const { rows } = await harness.services.db.pool.query(
      'SELECT status::text, attempts, last_status_code FROM webhook_deliveries WHERE scrape_request_id = $1',
      [id],
    );
    expect(rows).toEqual([{ status: 'delivered', attempts: 2, last_status_code: 200 }]);
  });

  it('sends nothing when a delivery job runs again for a row already delivered', async () => {
    const { body } = await harness.post('/v1/scrapes', {
      domain: 'rerun.test',
      callbackUrl: 'https://hooks.test/scrapes',
    });
    const id = body.id as string;
    await harness.waitFor(id, ['done']);
    const pool = harness.services.db.pool;
    await waitForOutboxDrained(pool, id);
    const ours = () => receiver.received.filter((r) => JSON.parse(r.body).data.id === id);
    const {
      rows: [delivered],
    } = await pool.query(
      'SELECT id::text, attempts FROM webhook_deliveries WHERE scrape_request_id = $1 AND status = $2',
      [id, 'delivered'],
    );
    const sent = ours().length;
    expect(sent).toBeGreaterThanOrEqual(1);

    // a duplicate of the job (a re-run after a lost acknowledgement, an operator's retry)
    await enqueueJob(
      pool,
      DELIVER_WEBHOOK_TASK,
      { deliveryId: delivered.id },
      { jobKey: `webhook:${delivered.id}` },
    );
    await waitForOutboxDrained(pool, id);

    expect(ours()).toHaveLength(sent);
    const { rows } = await pool.query(
      'SELECT status::text, attempts FROM webhook_deliveries WHERE id = $1',
      [delivered.id],
    );
    expect(rows).toEqual([{ status: 'delivered', attempts: delivered.attempts }]);
  });

  it('posts scrape.failed for a request that fails', async () => {
    const before = receiver.received.length;
    const { body } = await harness.post('/v1/scrapes', {
      domain: 'notshop.test',
      callbackUrl: 'https://hooks.test/scrapes',
    });
    await harness.waitFor(body.id, ['failed']);
    await until(() => receiver.received.length > before);
    const event = JSON.parse(receiver.received[before]!.body);
    expect(event).toMatchObject({
      type: 'scrape.failed',
      data: { id: body.id, status: 'failed', storeUrl: null },
    });
    expect(event.data.failureReason).toMatch(/not a Shopify storefront/);
  });

  it('does not trust a receiver certificate outside NODE_EXTRA_CA_CERTS, and gives up after WEBHOOK_MAX_ATTEMPTS', async () => {
    const { body } = await harness.post('/v1/scrapes', {
      domain: 'dropper.test',
      callbackUrl: 'https://untrusted.test/hook',
    });
    await harness.waitFor(body.id, ['done']);
    const pool = harness.services.db.pool;
    await until(
      async () =>
        (
          await pool.query(
            `SELECT 1 FROM webhook_deliveries WHERE scrape_request_id = $1 AND status = 'failed'`,
            [body.id],
          )
        ).rowCount === 1,
    );
    const {
      rows: [delivery],
    } = await pool.query(
      'SELECT attempts, last_error FROM webhook_deliveries WHERE scrape_request_id = $1',
      [body.id],
    );
    expect(delivery.attempts).toBe(2);
    expect(delivery.last_error).toMatch(/certificate|self.signed|issuer/i);
    expect(untrusted.received).toHaveLength(0);
  });

  it('refuses a callbackUrl at a private address', async () => {
    const response = await harness.post('/v1/scrapes', {
      domain: 'other.test',
      callbackUrl: 'https://169.254.169.254/latest',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.parameter).toBe('callbackUrl');
  });
});
