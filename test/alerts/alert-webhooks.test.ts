// alert.matched webhooks: an alert with a callbackUrl gets its matches POSTed to a real local HTTPS
// receiver, signed per Standard Webhooks (the scrape webhooks' outbox and delivery), batched to at
// most one delivery per alert per ALERT_WEBHOOK_INTERVAL_MS (2 s here, a minute by default): the
// matches that arrive while a batch is recent wait for the next one, which lists them all.
import { storefrontObservation } from '../support/storefront-observation.ts';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HARNESS_START,
  startSignalsHarness,
  type SignalsHarness,
} from '../signals/support/signals-harness.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../scrapes/support/https-receiver.ts';
import { loadReferenceData } from '../../src/seed/reference-data.ts';
import { writeObservation } from '../../src/storefront/catalog-writer.ts';
import type { StorefrontObservation } from '../../src/storefront/read-storefront.ts';
import { observe, partitionsFor } from './support.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const INTERVAL_MS = 2_000;
let receiver: HttpsReceiver;
let h: SignalsHarness;
let key: string;

const at = (minutes: number) => new Date(HARNESS_START.getTime() + minutes * 60_000);

const until = async (condition: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

beforeAll(async () => {
  receiver = await startHttpsReceiver('hooks.test', [200]);
  h = await startSignalsHarness({
    appCatalog: true,
    egressOverrides: `hooks.test=https://127.0.0.1:${receiver.port}`,
    env: {
      NODE_EXTRA_CA_CERTS: receiver.caFile,
      WEBHOOK_SIGNING_SECRET: SECRET,
      ALERT_WEBHOOK_INTERVAL_MS: String(INTERVAL_MS),
    },
  });
  key = await h.mintKey({ account: 'alert-hooks' });
  await partitionsFor(h.services);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await receiver?.close();
});

/** the event, its signature checked the Standard Webhooks way with the server's secret */
function verified(index: number): any {
  const { headers, body } = receiver.received[index]!;
  const signedAt = new Date(Number(headers['webhook-timestamp']) * 1000);
  // the harness clock is in 2030, past verify()'s 5-minute tolerance: sign the same message and compare
  expect(headers['webhook-signature']).toBe(
    new Webhook(SECRET).sign(headers['webhook-id']!, signedAt, body),
  );
  expect(headers['webhook-signature']).not.toBe(
    new Webhook(`whsec_${randomBytes(32).toString('base64')}`).sign(
      headers['webhook-id']!,
      signedAt,
      body,
    ),
  );
  return JSON.parse(body);
}

const appsBySlug = async () =>
  (
    await h.services.db.pool.query<{ id: number; slug: string; name: string }>(
      'SELECT id, slug, name FROM apps',
    )
  ).rows;

const observation = (
  domain: string,
  slug: string,
  apps: { id: number; slug: string; name: string }[],
): StorefrontObservation =>
  storefrontObservation({
    domain,
    themeName: null,
    apps: apps.filter((a) => a.slug === slug).map((a) => ({ ...a, category: null, patterns: [] })),
  });

describe('alert.matched webhooks', () => {
  it('posts signed batches, at most one per interval per alert, each listing the matches since the last', async () => {
    const pool = h.services.db.pool;
    const hooked = await h.request('POST', '/v1/alerts', {
      key,
      body: {
        name: 'judge.me',
        filter: { app: 'judgeme' },
        callbackUrl: 'https://hooks.test/alerts',
      },
    });
    expect(hooked.status).toBe(201);
    expect(hooked.body.callbackUrl).toBe('https://hooks.test/alerts');
    const quiet = await h.request('POST', '/v1/alerts', {
      key,
      body: { name: 'judge.me, no callback', filter: { app: 'judgeme' } },
    });
    const id = hooked.body.id as number;

    await observe(pool, { domain: 'one.test', apps: ['judgeme'] }, at(1));
    await until(() => receiver.received.length === 1);
    // two more while the first batch is recent: they wait for the next batch, together
    await observe(pool, { domain: 'two.test', apps: ['judgeme'] }, at(2));
    await observe(pool, { domain: 'three.test', apps: ['judgeme'] }, at(3));
    await until(() => receiver.received.length === 2);
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS + 500));
    expect(receiver.received).toHaveLength(2);

    const [first, second] = [verified(0), verified(1)];
    expect(first).toEqual({
      type: 'alert.matched',
      timestamp: expect.any(String),
      data: {
        alert: { id, name: 'judge.me' },
        matches: [{ domain: 'one.test', matchedAt: at(1).toISOString() }],
        matchesUrl: `/v1/alerts/${id}/matches`,
      },
    });
    expect(second.data.matches).toEqual([
      { domain: 'two.test', matchedAt: at(2).toISOString() },
      { domain: 'three.test', matchedAt: at(3).toISOString() },
    ]);
    expect(receiver.received[1]!.headers['webhook-id']).not.toBe(
      receiver.received[0]!.headers['webhook-id'],
    );

    // the outbox: two deliveries of this alert, made at least an interval apart, every match carried
    const { rows: deliveries } = await pool.query(
      `SELECT status::text, event, created_at FROM webhook_deliveries WHERE alert_id = $1 ORDER BY created_at`,
      [id],
    );
    expect(deliveries.map((d) => [d.status, d.event])).toEqual([
      ['delivered', 'alert.matched'],
      ['delivered', 'alert.matched'],
    ]);
    expect(
      deliveries[1].created_at.getTime() - deliveries[0].created_at.getTime(),
    ).toBeGreaterThanOrEqual(INTERVAL_MS);
    const { rows: unsent } = await pool.query(
      'SELECT count(*)::int AS n FROM alert_matches WHERE alert_id = $1 AND delivery_id IS NULL',
      [id],
    );
    expect(unsent).toEqual([{ n: 0 }]);
    // the alert without a callbackUrl matched the same stores and sent nothing
    const matches = await h.request('GET', `/v1/alerts/${quiet.body.id}/matches`, { key });
    expect(matches.body.page.total).toBe(3);
    const { rows: quietDeliveries } = await pool.query(
      'SELECT count(*)::int AS n FROM webhook_deliveries WHERE alert_id = $1',
      [quiet.body.id],
    );
    expect(quietDeliveries).toEqual([{ n: 0 }]);
  });

  it('writes a match and its batch job in the observation transaction: a rolled-back observation leaves neither', async () => {
    const pool = h.services.db.pool;
    const { body: alert } = await h.request('POST', '/v1/alerts', {
      key,
      body: {
        name: 'klaviyo',
        filter: { app: 'klaviyo-email-marketing' },
        callbackUrl: 'https://hooks.test/k',
      },
    });
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await writeObservation(
        client,
        observation('rolled-back.test', 'klaviyo-email-marketing', await appsBySlug()),
        {
          now: at(20),
          reference: loadReferenceData(),
          legacyId: 'c'.repeat(24),
        },
      );
      // inside the transaction both exist
      const inside = await client.query(
        `SELECT (SELECT count(*)::int FROM alert_matches WHERE alert_id = $1) AS matches,
                (SELECT count(*)::int FROM graphile_worker.jobs WHERE key = $2) AS jobs`,
        [alert.id, `alert-batch:${alert.id}`],
      );
      expect(inside.rows).toEqual([{ matches: 1, jobs: 1 }]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    const after = await pool.query(
      `SELECT (SELECT count(*)::int FROM alert_matches WHERE alert_id = $1) AS matches,
              (SELECT count(*)::int FROM graphile_worker.jobs WHERE key = $2) AS jobs`,
      [alert.id, `alert-batch:${alert.id}`],
    );
    expect(after.rows).toEqual([{ matches: 0, jobs: 0 }]);
  });
});
