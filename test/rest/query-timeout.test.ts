// A backing query that runs past QUERY_TIMEOUT_MS ends as the contract's query_timeout error on
// /v1 (HTTP 504, documented), never as a 500 or a driver message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openRestApp, type RestApp } from './support/rest-app.ts';

describe('query timeout on /v1', () => {
  let rest: RestApp;
  beforeAll(async () => {
    rest = await openRestApp({ fixture: true, queryTimeoutMs: 300 });
  });
  afterAll(async () => {
    await rest?.close();
  });

  it('answers query_timeout with the envelope while a statement waits past the timeout', async () => {
    // another session holds a lock on stores; our statements wait for it until statement_timeout
    const blocker = new pg.Client({ connectionString: rest.services.db.url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE stores IN ACCESS EXCLUSIVE MODE');
      for (const url of ['/v1/stores', '/v1/stores/acme-apparel.com']) {
        const res = await rest.get(url);
        expect(res.status, url).toBe(504);
        expect(res.body.error.code, url).toBe('query_timeout');
        expect(res.text, url).not.toContain('canceling statement');
      }
    } finally {
      await blocker.query('ROLLBACK');
      await blocker.end();
    }
    expect((await rest.get('/v1/stores/acme-apparel.com')).status).toBe(200);
  });
});
