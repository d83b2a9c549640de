// Signals are scoped to the key's account: two accounts watch the same store independently and
// neither sees the other's watch (not_found); a partner key (signals:read) reads any domain on
// Signals but may not create, alter or delete watches (403). Without keys (open-dev mode) keyless
// callers share one account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignalsHarness, type SignalsHarness } from './support/signals-harness.ts';

const LEGACY_ID = '0123456789abcdef01234567';
let h: SignalsHarness;

beforeAll(async () => {
  h = await startSignalsHarness();
  await h.addStore(
    'stock.test',
    [{ handle: 'tee', title: 'Tee', price: 20, bestSellerRank: 1 }],
    LEGACY_ID,
  );
  await h.addStore('hidden.test', [
    { handle: 'lamp', title: 'Lamp', price: 45, bestSellerRank: 1 },
  ]);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('Signals scoping', () => {
  it('in open-dev mode (no key exists) keyless callers share one account’s watches', async () => {
    const created = await h.request('POST', '/v1/signals', { body: { domain: 'hidden.test' } });
    expect(created.status).toBe(201);
    expect((await h.request('GET', '/v1/signals/hidden.test')).status).toBe(200);
    await h.waitForProbe('hidden.test');
  });

  it('keeps two accounts watching the same store apart', async () => {
    const alice = await h.mintKey({ account: 'alice' });
    const bob = await h.mintKey({ account: 'bob' });
    // keys exist now: open-dev mode is over
    expect((await h.request('GET', '/v1/signals')).status).toBe(401);

    expect(
      (await h.request('POST', '/v1/signals', { key: alice, body: { domain: 'stock.test' } }))
        .status,
    ).toBe(201);
    await h.waitForProbe('stock.test', alice);
    // bob cannot see alice's watch, by domain or legacy id, nor act on it
    for (const [method, url] of [
      ['GET', '/v1/signals/stock.test'],
      ['GET', `/v1/signals/${LEGACY_ID}`],
      ['GET', '/v1/signals/stock.test/stats'],
      ['GET', '/v1/signals/stock.test/insights'],
      ['PATCH', '/v1/signals/stock.test'],
      ['POST', '/v1/signals/stock.test/probe'],
      ['DELETE', '/v1/signals/stock.test'],
    ] as const) {
      const answer = await h.request(method, url, {
        key: bob,
        ...(method === 'PATCH' ? { body: { status: 'paused' } } : {}),
      });
      expect(answer.status, `${method} ${url}`).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
    expect((await h.request('GET', '/v1/signals', { key: bob })).body.data).toEqual([]);

    // bob watches the same store: his own watch, his own probes; pausing it leaves alice's tracked
    expect(
      (await h.request('POST', '/v1/signals', { key: bob, body: { domain: 'stock.test' } })).status,
    ).toBe(201);
    await h.waitForProbe('stock.test', bob);
    expect(
      (await h.request('PATCH', '/v1/signals/stock.test', { key: bob, body: { status: 'paused' } }))
        .body.status,
    ).toBe('paused');
    expect((await h.request('GET', '/v1/signals/stock.test', { key: alice })).body.status).toBe(
      'tracked',
    );
    expect((await h.request('DELETE', '/v1/signals/stock.test', { key: bob })).status).toBe(200);
    expect((await h.request('GET', '/v1/signals/stock.test', { key: alice })).status).toBe(200);
    const aliceList = await h.request('GET', '/v1/signals', { key: alice });
    expect(aliceList.body.data.map((w: any) => w.domain)).toEqual(['stock.test']);
  });

  it('lets a partner key (signals:read) GET a domain on Signals, and refuses its writes with 403', async () => {
    const partner = await h.mintKey({ account: 'partner', scopes: ['signals:read'] });
    for (const url of [
      '/v1/signals/stock.test',
      `/v1/signals/${LEGACY_ID}`,
      '/v1/signals/stock.test/probe',
      '/v1/signals/stock.test/stats',
      '/v1/signals/stock.test/sales',
      '/v1/signals/stock.test/inventory',
      '/v1/signals/stock.test/insights',
    ]) {
      expect((await h.request('GET', url, { key: partner })).status, url).toBe(200);
    }
    expect((await h.request('GET', '/v1/signals/nowhere.test', { key: partner })).status).toBe(404);
    for (const [method, url, body] of [
      ['POST', '/v1/signals', { domain: 'hidden.test' }],
      ['PATCH', '/v1/signals/stock.test', { status: 'paused' }],
      ['POST', '/v1/signals/stock.test/stop', undefined],
      ['POST', '/v1/signals/stock.test/probe', undefined],
      ['DELETE', '/v1/signals/stock.test', undefined],
    ] as const) {
      const answer = await h.request(method, url, { key: partner, body });
      expect(answer.status, `${method} ${url}`).toBe(403);
      expect(answer.body.error).toMatchObject({
        code: 'unauthorized',
        details: { reason: 'scope', scope: 'signals:read' },
      });
    }
    const { rows } = await h.services.db.pool.query(
      `SELECT count(*)::int AS n, bool_and(status = 'tracked') AS tracked FROM signals`,
    );
    expect(rows[0]).toEqual({ n: 2, tracked: true });
  });
});
