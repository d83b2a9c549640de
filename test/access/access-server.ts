// A real server (buildServer, access layer included) on a test database, with its own
// configuration and a log the test can read. Several servers may share one database and one Redis
// (the replicas of a deployment); each test gives its counters a unique Redis prefix.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/http/server.ts';
import { openLegacyStore } from '../../src/legacy/index.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { openDatabase } from '../../src/platform/database/database.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createPubSub } from '../../src/platform/pubsub/pubsub.ts';
import type { Services } from '../../src/platform/services.ts';
import { mintApiKey, type MintApiKeyInput } from '../../src/access/api-keys.ts';

export interface AccessServer {
  app: FastifyInstance;
  services: Services;
  /** every log line so far, raw JSON */
  logLines: string[];
  close(): Promise<void>;
}

export const uniquePrefix = () => `test-quota-${randomBytes(6).toString('hex')}`;

export const SERVICE_TOKEN = 'web-app-service-token-for-tests-0123456789';

export async function startAccessServer(databaseUrl: string, env: Record<string, string | undefined> = {}): Promise<AccessServer> {
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger('debug', sink);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    SEED_STORES: '0',
    WEB_APP_SERVICE_TOKEN: SERVICE_TOKEN,
    QUOTA_REDIS_PREFIX: uniquePrefix(),
    ...env,
  });
  const db = await openDatabase({ url: databaseUrl, logger, queryTimeoutMs: config.QUERY_TIMEOUT_MS, poolSize: 4 });
  const legacy = await openLegacyStore({ config, pool: db.pool, logger });
  const pubsub = createPubSub({ logger });
  const services: Services = { config, logger, db, legacy, pubsub };
  const app = await buildServer(services);
  return {
    app,
    services,
    logLines,
    async close() {
      await app.close();
      await pubsub.close();
      await legacy.close();
      await db.close();
    },
  };
}

export async function mintKey(server: AccessServer, input: Partial<MintApiKeyInput> = {}): Promise<string> {
  const minted = await mintApiKey(server.services.db.prisma, {
    accountExternalId: `acct-${randomBytes(4).toString('hex')}`,
    plan: 'starter',
    ...input,
  });
  return minted.key;
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
