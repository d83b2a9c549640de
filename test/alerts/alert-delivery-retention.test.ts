// An alert's webhook deliveries are kept a week once they are settled (delivered, or failed for
// good): the worker's sweep deletes older ones, never one still pending and never a scrape's.
import { describe, expect, it } from 'vitest';
import { sweepAlertDeliveries } from '../../src/alerts/alert-webhooks.ts';
import { suiteDatabase } from '../support/database.ts';

const suite = suiteDatabase();

const DAY_MS = 86_400_000;

describe('alert webhook deliveries', () => {
  it('are deleted a week after they settled, unless still pending', async () => {
    // created_at is the database's clock, as the sweep's is
    const now = new Date();
    const {
      rows: [account],
    } = await suite.pool.query<{ id: number }>(
      `INSERT INTO accounts (external_id, name) VALUES ('retention', 'Retention') RETURNING id`,
    );
    const {
      rows: [alert],
    } = await suite.pool.query<{ id: number }>(
      `INSERT INTO alerts (account_id, name, filter) VALUES ($1, 'kept', '{}') RETURNING id`,
      [account!.id],
    );
    const delivery = async (name: string, status: string, ageDays: number) =>
      suite.pool.query(
        `INSERT INTO webhook_deliveries (id, alert_id, event, url, payload, status, created_at)
         VALUES (gen_random_uuid(), $1, 'alert.matched', $2, '{}', $3::delivery_status, $4)`,
        [
          alert!.id,
          `https://hooks.example/${name}`,
          status,
          new Date(now.getTime() - ageDays * DAY_MS),
        ],
      );
    await delivery('old-delivered', 'delivered', 8);
    await delivery('old-failed', 'failed', 8);
    await delivery('old-pending', 'pending', 8);
    await delivery('recent-delivered', 'delivered', 6);
    await sweepAlertDeliveries(suite.pool);
    const { rows } = await suite.pool.query<{ url: string }>(
      'SELECT url FROM webhook_deliveries WHERE alert_id = $1 ORDER BY url',
      [alert!.id],
    );
    expect(rows.map((r) => r.url)).toEqual([
      'https://hooks.example/old-pending',
      'https://hooks.example/recent-delivered',
    ]);
  });
});
