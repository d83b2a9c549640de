// The client address the unauthenticated per-address limit counts by: the TCP peer unless
// TRUST_PROXY says which proxies' X-Forwarded-For to believe (a hop count or a CIDR list), and an
// IPv6 client by its /64 (one subscriber's allocation), so neither a load balancer's clients share
// one bucket nor does one IPv6 host get 2^64 of them.
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { mintKey, startAccessServer, type AccessServer } from './access-server.ts';

const LIMIT = 2;

describe('the client address of the per-address limit', () => {
  let db: TestDatabase;
  let server: AccessServer | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  afterAll(async () => {
    await db?.drop();
  });

  const start = async (env: Record<string, string> = {}) => {
    server = await startAccessServer(db.url, { UNAUTHENTICATED_PER_MINUTE: String(LIMIT), ...env });
    await mintKey(server); // keys exist: a request without one is unauthenticated
    return server;
  };
  /** statuses of keyless requests from `peer`, each with its X-Forwarded-For (none when undefined) */
  const statuses = async (peer: string, forwardedFor: Array<string | undefined>) => {
    const out: number[] = [];
    for (const forwarded of forwardedFor) {
      const headers: Record<string, string> = forwarded ? { 'x-forwarded-for': forwarded } : {};
      out.push(
        (
          await server!.app.inject({
            method: 'GET',
            url: '/v1/stores',
            headers,
            remoteAddress: peer,
          })
        ).statusCode,
      );
    }
    return out;
  };

  it('ignores X-Forwarded-For by default: a caller cannot pick its own bucket', async () => {
    await start();
    expect(
      await statuses('203.0.113.10', ['198.51.100.1', '198.51.100.2', '198.51.100.3']),
    ).toEqual([401, 401, 429]);
  });

  it('with TRUST_PROXY=1 counts the address the proxy saw', async () => {
    await start({ TRUST_PROXY: '1' });
    expect(await statuses('10.0.0.5', ['198.51.100.1', '198.51.100.1', '198.51.100.1'])).toEqual([
      401, 401, 429,
    ]);
    expect(await statuses('10.0.0.5', ['198.51.100.2'])).toEqual([401]);
    // one hop: of a chain, the address the trusted proxy appended (the last one)
    expect(await statuses('10.0.0.5', ['192.0.2.99, 198.51.100.1'])).toEqual([429]);
  });

  it('with TRUST_PROXY as CIDRs believes those proxies only', async () => {
    await start({ TRUST_PROXY: '10.0.0.0/8, fd00::/8' });
    expect(await statuses('10.1.2.3', ['198.51.100.1', '198.51.100.1', '198.51.100.1'])).toEqual([
      401, 401, 429,
    ]);
    expect(await statuses('fd00::7', ['198.51.100.2'])).toEqual([401]);
    // a peer outside the list is counted as itself, whatever it forwards
    expect(
      await statuses('203.0.113.20', ['198.51.100.3', '198.51.100.4', '198.51.100.5']),
    ).toEqual([401, 401, 429]);
  });

  it('keys an IPv6 client by its /64', async () => {
    await start();
    expect(await statuses('2001:db8:1:2::1', [undefined, undefined])).toEqual([401, 401]);
    expect(await statuses('2001:db8:1:2:ffff:ffff:ffff:9', [undefined])).toEqual([429]);
    expect(await statuses('2001:db8:1:3::1', [undefined])).toEqual([401]);
    // an IPv4 client reached over an IPv4-mapped address is that IPv4 client
    expect(await statuses('198.51.100.77', [undefined, undefined])).toEqual([401, 401]);
    expect(await statuses('::ffff:198.51.100.77', [undefined])).toEqual([429]);
  });

  it('refuses a TRUST_PROXY it cannot read', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'the load balancer' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '2' })).not.toThrow();
  });
});
