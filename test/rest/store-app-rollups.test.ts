// Grouped rows of one app filter alone (GET /v1/stores?app=klaviyo&groupBy=country) come from the
// rollups (store_app_rollups) while they are fresh: the same figures as the live query, and, like
// every rollup, the figures of their time until the next refresh.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStoreRollups } from '../../src/stores/rollups/store-rollups.ts';
import { openRestApp, type RestApp } from './support/rest-app.ts';

let rest: RestApp;

beforeAll(async () => {
  rest = await openRestApp({ fixture: true });
});
afterAll(() => rest?.close());

describe('an app filter grouped by one dimension', () => {
  it("reads one app's grouped rows from the rollups while they are fresh, the same figures as live", async () => {
    const queries = ['country', 'vertical', 'industry', 'category'].flatMap((groupBy) =>
      ['median', 'mean', 'max', 'min'].map(
        (groupMetric) =>
          `/v1/stores?app=klaviyo&groupBy=${groupBy}&groupMetric=${groupMetric}&sort=revenue&limit=100`,
      ),
    );
    const live = await Promise.all(queries.map(async (url) => (await rest.get(url)).body));
    const pool = rest.services.db.pool;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await buildStoreRollups(client);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    for (const [i, url] of queries.entries())
      expect((await rest.get(url)).body, url).toEqual(live[i]);
    // an install gone since the rollups were computed: the rolled-up rows keep the figures of their time
    const removed = await pool.query(
      `DELETE FROM store_apps WHERE store_id = (SELECT id FROM stores WHERE domain = 'berlin-boots.de')
         AND app_id = (SELECT id FROM apps WHERE slug = 'klaviyo') RETURNING store_id, app_id`,
    );
    try {
      expect((await rest.get(queries[0]!)).body).toEqual(live[0]);
      expect(
        (await rest.get('/v1/stores?app=klaviyo&countryCode=DE&groupBy=country')).body.data,
      ).toEqual([]);
    } finally {
      await pool.query(`INSERT INTO store_apps (store_id, app_id) VALUES ($1, $2)`, [
        removed.rows[0]!.store_id,
        removed.rows[0]!.app_id,
      ]);
      await pool.query('DELETE FROM store_rollup_refreshes');
    }
  });
});
