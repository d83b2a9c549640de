// Open-dev mode (no key yet, NODE_ENV not production): it answers loopback clients only, it ends
// with the first key and, unless an operator asks for it (OPEN_DEV_MODE=while-no-live-key), it never
// comes back: revoking every key leaves a server that refuses keyless callers.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { revokeApiKey } from '../../src/access/api-keys.ts';
import { displayPrefix } from '../../src/access/key-format.ts';
import { mintKey, startAccessServer, type AccessServer } from './access-server.ts';

describe('open-dev mode', () => {
  let db: TestDatabase | undefined;
  let server: AccessServer | undefined;
  afterEach(async () => {
    await server?.close();
    await db?.drop();
    server = undefined;
    db = undefined;
  });
  const start = async (env: Record<string, string> = {}) => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url, env);
    return server;
  };
  const storesFrom = (s: AccessServer, remoteAddress: string) =>
    s.app.inject({ method: 'GET', url: '/v1/stores', remoteAddress });
  const openDevSays = async (s: AccessServer) =>
    (await s.app.inject({ method: 'GET', url: '/v1/health' })).json().openDevMode;

  it('does not come back when the only key is revoked', async () => {
    const s = await start();
    expect((await storesFrom(s, '127.0.0.1')).statusCode).toBe(200);
    const key = await mintKey(s);
    await revokeApiKey(s.services.db.prisma, displayPrefix(key));
    const anonymous = await storesFrom(s, '127.0.0.1');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('unauthorized');
    expect(await openDevSays(s)).toBe(false);
  });

  it('does not come back on a restart either (a server started on a database whose keys are all revoked)', async () => {
    const s = await start();
    const key = await mintKey(s);
    await revokeApiKey(s.services.db.prisma, displayPrefix(key));
    await s.close();
    server = await startAccessServer(db!.url);
    expect((await storesFrom(server, '127.0.0.1')).statusCode).toBe(401);
    expect(server.logLines.some((line) => line.includes('OPEN-DEV MODE'))).toBe(false);
  });

  it('answers loopback clients only', async () => {
    const s = await start();
    for (const loopback of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect((await storesFrom(s, loopback)).statusCode, loopback).toBe(200);
    }
    for (const remote of ['203.0.113.7', '10.0.0.2', '::ffff:192.168.1.4', '2001:db8::1']) {
      const refused = await storesFrom(s, remote);
      expect(refused.statusCode, remote).toBe(401);
      expect(refused.json().error.message, remote).toContain('loopback');
    }
  });

  it('comes back after revocation only when an operator asks for it (OPEN_DEV_MODE=while-no-live-key)', async () => {
    const s = await start({ OPEN_DEV_MODE: 'while-no-live-key' });
    const key = await mintKey(s);
    expect((await storesFrom(s, '127.0.0.1')).statusCode).toBe(401);
    await revokeApiKey(s.services.db.prisma, displayPrefix(key));
    expect((await storesFrom(s, '127.0.0.1')).statusCode).toBe(200);
    expect(await openDevSays(s)).toBe(true);
  });

  it('never runs with OPEN_DEV_MODE=off, even before any key exists', async () => {
    const s = await start({ OPEN_DEV_MODE: 'off' });
    expect((await storesFrom(s, '127.0.0.1')).statusCode).toBe(401);
    expect(await openDevSays(s)).toBe(false);
  });
});
