// A real server (buildServer, access layer included) on a test database, with its own
// configuration and a log the test can read. Several servers may share one database and one Redis
// (the replicas of a deployment); each test gives its counters a unique Redis prefix.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../app/server.ts';
import type { Services } from '../../src/platform/services.ts';
import { openServicesOn } from '../support/open-services.ts';
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

export async function startAccessServer(
  databaseUrl: string,
  env: Record<string, string | undefined> = {},
): Promise<AccessServer> {
  const opened = await openServicesOn(
    databaseUrl,
    { WEB_APP_SERVICE_TOKEN: SERVICE_TOKEN, QUOTA_REDIS_PREFIX: uniquePrefix(), ...env },
    { poolSize: 4 },
  );
  const app = await buildServer(opened.services);
  return {
    app,
    services: opened.services,
    logLines: opened.logLines,
    async close() {
      await app.close();
      await opened.close();
    },
  };
}

export async function mintKey(
  server: AccessServer,
  input: Partial<MintApiKeyInput> = {},
): Promise<string> {
  const minted = await mintApiKey(server.services.db.prisma, {
    accountExternalId: `acct-${randomBytes(4).toString('hex')}`,
    plan: 'starter',
    ...input,
  });
  return minted.key;
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
