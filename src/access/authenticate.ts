// Turning a presented key into a principal: one indexed lookup by SHA-256, then a constant-time
// comparison of the stored and computed digests. lastUsedAt is refreshed at most once a minute per
// key and instance, off the request's path. Open-dev mode is read from the database on each
// keyless request, so a key minted by `npm run keys` (another process) ends it at once.
import type pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { ApiError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { Services } from '../platform/services.ts';
import { hashApiKey, sameHash } from './key-format.ts';
import type { KeyPrincipal } from './principal.ts';

const LAST_USED_RESOLUTION_MS = 60_000;

export const invalidKey = () =>
  new ApiError('unauthorized', 'The API key is not valid (unknown or revoked). Send a current key in Authorization: Bearer <key> or X-Api-Key.');

export const missingKey = () =>
  new ApiError('unauthorized', 'An API key is required: send Authorization: Bearer <key> or X-Api-Key: <key>. Keys are minted on the web app\'s integrations page (paid plans).');

export class KeyAuthenticator {
  private readonly lastUsedWrites = new Map<number, number>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly logger: Logger,
  ) {}

  /** The key's principal; throws unauthorized for an unknown or revoked key. */
  async authenticate(key: string): Promise<KeyPrincipal> {
    const hash = hashApiKey(key);
    const row = await this.prisma.apiKey.findUnique({
      where: { hash },
      select: { id: true, prefix: true, hash: true, scopes: true, revokedAt: true, account: { select: { id: true, externalId: true, plan: true } } },
    });
    if (!row || !sameHash(row.hash, hash) || row.revokedAt) throw invalidKey();
    this.touch(row.id);
    return {
      kind: 'key',
      keyId: row.id,
      keyPrefix: row.prefix,
      accountId: row.account.id,
      accountExternalId: row.account.externalId,
      plan: row.account.plan,
      scopes: row.scopes,
    };
  }

  private touch(keyId: number): void {
    const now = Date.now();
    if (now - (this.lastUsedWrites.get(keyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastUsedWrites.set(keyId, now);
    this.prisma.apiKey
      .update({ where: { id: keyId }, data: { lastUsedAt: new Date(now) } })
      .catch((error: unknown) => this.logger.warn({ err: { message: (error as Error).message }, keyId }, 'could not record key use'));
  }
}

/** Whether any key can still be used. */
export async function anyLiveKey(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ live: boolean }>('SELECT EXISTS (SELECT 1 FROM api_keys WHERE revoked_at IS NULL) AS live');
  return rows[0]?.live ?? false;
}

/**
 * Open-dev mode: no live key exists, so data routes accept requests without one. Never in
 * production, where a missing key is always unauthorized. For /v1/health and the start-up log.
 */
export async function isOpenDevMode(services: Pick<Services, 'config' | 'db'>): Promise<boolean> {
  if (services.config.NODE_ENV === 'production') return false;
  return !(await anyLiveKey(services.db.pool));
}
