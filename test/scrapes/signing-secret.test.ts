// Callbacks work out of the box: without WEBHOOK_SIGNING_SECRET the service generates one secret
// once, keeps it in the database so every replica signs alike, and the operator can read it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { runKeysCommand } from '../../app/cli/keys.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { openDatabase, type Database } from '../../src/platform/database/database.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { withWebhookSecret } from '../../src/scrapes/webhooks/signing-secret.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

describe('webhook signing secret', () => {
  let testDb: TestDatabase;
  let db: Database;
  const config = (env: Record<string, string> = {}) =>
    loadConfig({ NODE_ENV: 'test', DATABASE_URL: testDb.url, LOG_LEVEL: 'silent', ...env });
  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await openDatabase({
      url: testDb.url,
      logger: createLogger('silent'),
      queryTimeoutMs: 5_000,
    });
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('generates one usable secret when none is configured, the same for every process that asks', async () => {
    const replicas = await Promise.all([1, 2, 3].map(() => withWebhookSecret(config(), db.pool)));
    const secrets = new Set(replicas.map((c) => c.WEBHOOK_SIGNING_SECRET));
    expect(secrets.size).toBe(1);
    const [secret] = secrets;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // a Standard Webhooks receiver verifies what this secret signs
    const hook = new Webhook(secret!);
    const body = JSON.stringify({ type: 'scrape.done' });
    const at = new Date();
    const signature = hook.sign('msg_1', at, body);
    expect(() =>
      hook.verify(body, {
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      }),
    ).not.toThrow();
  });

  it('keeps a configured secret and does not replace it', async () => {
    const configured = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(
      (await withWebhookSecret(config({ WEBHOOK_SIGNING_SECRET: configured }), db.pool))
        .WEBHOOK_SIGNING_SECRET,
    ).toBe(configured);
  });

  it('lets the operator read the secret in use with `npm run keys -- webhook-secret`', async () => {
    const stored = (await withWebhookSecret(config(), db.pool)).WEBHOOK_SIGNING_SECRET;
    const out: string[] = [];
    const code = await runKeysCommand(
      ['webhook-secret'],
      { out: (t) => out.push(t), err: () => undefined },
      config(),
    );
    expect(code).toBe(0);
    expect(out).toEqual([stored]);
  });
});
