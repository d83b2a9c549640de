// The internal credential the warm-up sends its requests with before the server listens: it names
// its principal while it is in force, and no one once it has ended; a made-up value names no one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessOf } from '../../app/server.ts';
import { INTERNAL_CREDENTIAL_HEADER } from '../../src/access/access.ts';
import type { Principal } from '../../src/access/principal.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { mintKey, startAccessServer, type AccessServer } from './access-server.ts';

const CALLER: Principal = { kind: 'openDev', client: 'warm-up' };

describe('internal credential', () => {
  let db: TestDatabase;
  let server: AccessServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startAccessServer(db.url);
    // a live key: open-dev mode is off, so a request without a credential is refused
    await mintKey(server);
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  // from an address that is not loopback, as a caller from outside would be
  const search = (headers: Record<string, string>) =>
    server.app.inject({
      method: 'GET',
      url: '/v1/stores?limit=1',
      headers,
      remoteAddress: '203.0.113.9',
    });

  it('identifies its principal while in force, and no one after it ends', async () => {
    const credential = accessOf(server.app)!.internalCredential(CALLER);
    expect((await search(credential.headers)).statusCode).toBe(200);
    credential.end();
    const after = await search(credential.headers);
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('unauthorized');
  });

  it('names no one with a value it did not hand out, while one is in force', async () => {
    const credential = accessOf(server.app)!.internalCredential(CALLER);
    try {
      const guessed = await search({ [INTERNAL_CREDENTIAL_HEADER]: 'x'.repeat(43) });
      expect(guessed.statusCode).toBe(401);
      const empty = await search({ [INTERNAL_CREDENTIAL_HEADER]: '' });
      expect(empty.statusCode).toBe(401);
    } finally {
      credential.end();
    }
  });
});
