// The Standard Webhooks signing secret. WEBHOOK_SIGNING_SECRET sets it; without it the service
// generates one on its first start and keeps it in the database, so callbacks work out of the box
// and every replica and worker sharing that database signs with the same secret. Operators read
// it with `npm run keys -- webhook-secret` to give it to their receivers; it is never logged.
import { randomBytes } from 'node:crypto';
import type { Config } from '../../platform/config.ts';

interface Queryable {
  query<R extends Record<string, unknown>>(sql: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

const SECRET_NAME = 'webhook_signing_secret';

/** whsec_ + 32 random bytes in base64, the format Standard Webhooks libraries accept */
const generateSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The stored secret, created on first use; two processes racing agree on the first one written. */
export async function storedWebhookSecret(pool: Queryable): Promise<string> {
  await pool.query(
    'INSERT INTO service_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
    [SECRET_NAME, generateSecret()],
  );
  const { rows } = await pool.query<{ value: string }>(
    'SELECT value FROM service_secrets WHERE name = $1',
    [SECRET_NAME],
  );
  return rows[0]!.value;
}

/** The configuration with its signing secret filled in: the configured one, else the stored one. */
export async function withWebhookSecret(config: Config, pool: Queryable): Promise<Config> {
  if (config.WEBHOOK_SIGNING_SECRET) return config;
  return { ...config, WEBHOOK_SIGNING_SECRET: await storedWebhookSecret(pool) };
}
