// Turning a presented key into a principal: one indexed lookup by SHA-256, then a constant-time
// comparison of the stored and computed digests. lastUsedAt is refreshed at most once a minute per
// key and instance, off the request's path. Open-dev mode is read from the database on each
// keyless request until a key exists, so a key minted by `npm run keys` (another process) ends it at once.
//
// A live key's principal is kept in memory for KEY_CACHE_TTL_MS, so a request costs no database
// round trip for its key. That bounds how long a change made elsewhere takes: a revoked key (or an
// account's new plan) is seen within KEY_CACHE_TTL_MS. Changes announced on KEYS_CHANGED_CHANNEL
// (the web app's key mutations; `npm run keys` when REDIS_URL is set) empty the cache at once, on
// every replica sharing the pub/sub. Unknown and revoked keys are never cached.
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import type { Plan } from '../generated/prisma/client.ts';
import { queryRows } from '../platform/database/sql.ts';
import { ApiError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { Services } from '../platform/services.ts';
import { asInvalidToken } from './challenge.ts';
import { hashApiKey, sameHash } from './key-format.ts';
import type { KeyPrincipal } from './principal.ts';

const LAST_USED_RESOLUTION_MS = 60_000;
/** an api_keys id no key has (ids start at 1) */
const NO_KEY_ID = 0;
/** how long a key's principal is reused without reading api_keys again: the revocation bound */
export const KEY_CACHE_TTL_MS = 5_000;
const KEY_CACHE_MAX_ENTRIES = 10_000;
/** pub/sub channel: a key was revoked or an account's keys or plan changed; its payload is not read */
export const KEYS_CHANGED_CHANNEL = 'access:keys-changed';

/** Tells every server sharing the pub/sub to drop its cached keys, so a revocation applies at once. */
export async function announceKeysChanged(
  pubsub: Pick<Services['pubsub'], 'publish'>,
  logger: Logger,
): Promise<void> {
  try {
    await pubsub.publish(KEYS_CHANGED_CHANNEL, { at: new Date().toISOString() });
  } catch (error) {
    logger.warn(
      { err: { message: (error as Error).message } },
      `key change not announced: servers see it within ${KEY_CACHE_TTL_MS} ms`,
    );
  }
}

/** how to get a key, in every refusal for want of a valid one */
const HOW_TO_MINT =
  "On a self-hosted server, mint one with: npm run keys -- create --account ACCOUNT --plan starter (the hosted service mints keys on its web app's integrations page, for paid plans).";

export const invalidKey = () =>
  asInvalidToken(
    new ApiError(
      'unauthorized',
      `The API key is not valid (unknown or revoked). Send a current key in Authorization: Bearer <key> or X-Api-Key. ${HOW_TO_MINT}`,
    ),
  );

export const missingKey = () =>
  new ApiError(
    'unauthorized',
    `An API key is required: send Authorization: Bearer <key> or X-Api-Key: <key>. ${HOW_TO_MINT}`,
  );

/**
 * The last key each connection presented, with its hash. A client sends the same key on every
 * request of a keep-alive connection, so its hash (a SHA-256 per request otherwise) is kept with the
 * connection; a key is only ever compared with the one its own connection presented before.
 */
const lastKeyOfConnection = new WeakMap<object, { key: string; hash: string }>();

function hashOnConnection(key: string, connection: object | undefined): string {
  if (!connection) return hashApiKey(key);
  const last = lastKeyOfConnection.get(connection);
  if (last?.key === key) return last.hash;
  const hash = hashApiKey(key);
  lastKeyOfConnection.set(connection, { key, hash });
  return hash;
}

/** A key and its account by the key's hash: one prepared statement, read on the primary (a revocation is seen at once) */
const KEY_BY_HASH = `SELECT k.id, k.prefix, k.hash, k.scopes, k.revoked_at AS "revokedAt", a.id AS "accountId",
    a.external_id AS "accountExternalId", a.plan
  FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = $1`;
const RECORD_USE = 'UPDATE api_keys SET last_used_at = $2 WHERE id = $1';

interface KeyRow {
  id: number;
  prefix: string;
  hash: string;
  scopes: string[];
  revokedAt: Date | null;
  accountId: number;
  accountExternalId: string;
  plan: Plan;
}

export class KeyAuthenticator {
  private readonly lastUsedWrites = new Map<number, number>();
  private readonly live: LRUCache<string, KeyPrincipal>;
  /** bumped by forgetKeys: a lookup that began before a change must not cache what it read */
  private generation = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
    cacheTtlMs: number = KEY_CACHE_TTL_MS,
  ) {
    this.live = new LRUCache({
      max: KEY_CACHE_MAX_ENTRIES,
      ttl: Math.max(1, cacheTtlMs),
      ttlAutopurge: false,
    });
  }

  /** Drops every cached key: the next request of each key reads api_keys again. */
  forgetKeys(): void {
    this.generation++;
    this.live.clear();
  }

  /**
   * The key's principal, at once when it is cached (as on nearly every request); rejects with
   * unauthorized for an unknown or revoked key. `connection`: the client's socket, when there is one.
   */
  authenticate(key: string, connection?: object): KeyPrincipal | Promise<KeyPrincipal> {
    const hash = hashOnConnection(key, connection);
    const cached = this.live.get(hash);
    if (cached) {
      this.touch(cached.keyId);
      return cached;
    }
    return this.lookUp(hash);
  }

  private async lookUp(hash: string): Promise<KeyPrincipal> {
    const generation = this.generation;
    const [row] = await queryRows<KeyRow>(this.pool, KEY_BY_HASH, [hash], 'api-key-by-hash');
    if (!row || !sameHash(row.hash, hash) || row.revokedAt) throw invalidKey();
    this.touch(row.id);
    const principal: KeyPrincipal = {
      kind: 'key',
      keyId: row.id,
      keyPrefix: row.prefix,
      accountId: row.accountId,
      accountExternalId: row.accountExternalId,
      plan: row.plan,
      scopes: row.scopes,
    };
    if (generation === this.generation) this.live.set(hash, principal);
    return principal;
  }

  /**
   * Runs a request's queries once, before the first request does: the lookup of `unknownKey` (a
   * key of the right form that was never issued) and the use-record of a key id no key has, so a
   * connection has prepared both. Neither finds a row; nothing is written.
   */
  async warmUp(unknownKey: string): Promise<void> {
    await Promise.all([
      this.lookUp(hashApiKey(unknownKey)).catch(() => undefined),
      this.recordUse(NO_KEY_ID, new Date()).catch(() => undefined),
    ]);
  }

  private touch(keyId: number): void {
    const now = Date.now();
    if (now - (this.lastUsedWrites.get(keyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastUsedWrites.set(keyId, now);
    this.recordUse(keyId, new Date(now)).catch((error: unknown) =>
      this.logger.warn(
        { err: { message: (error as Error).message }, keyId },
        'could not record key use',
      ),
    );
  }

  private recordUse(keyId: number, at: Date) {
    return queryRows(this.pool, RECORD_USE, [keyId, at], 'api-key-record-use');
  }
}

/** Whether any key can still be used. */
export async function anyLiveKey(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ live: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM api_keys WHERE revoked_at IS NULL) AS live',
  );
  return rows[0]?.live ?? false;
}

/** Whether a key was ever created here (revoked keys keep their rows). */
export async function anyKeyEverCreated(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ any: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM api_keys) AS any',
  );
  return rows[0]?.any ?? false;
}

/**
 * Open-dev mode: data routes accept requests without a key (from loopback clients only). Never in
 * production. With OPEN_DEV_MODE=until-first-key (the default) it ends when the first key is
 * created and never returns, so revoking every key refuses keyless callers; while-no-live-key
 * (an operator's explicit choice) turns it back on whenever no key is live.
 */
export class OpenDevMode {
  /** until-first-key: once a key exists, no database read is needed again */
  private ended: boolean;

  constructor(
    private readonly config: Pick<Services['config'], 'NODE_ENV' | 'OPEN_DEV_MODE'>,
    private readonly pool: pg.Pool,
  ) {
    this.ended = config.NODE_ENV === 'production' || config.OPEN_DEV_MODE === 'off';
  }

  async isOn(): Promise<boolean> {
    if (this.ended) return false;
    if (this.config.OPEN_DEV_MODE === 'while-no-live-key') return !(await anyLiveKey(this.pool));
    if (await anyKeyEverCreated(this.pool)) this.ended = true;
    return !this.ended;
  }
}

/** Open-dev answers loopback clients only: the default bind (0.0.0.0) would open a keyless server to the network. */
export function isLoopbackClient(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'loopback';
}

export const openDevLoopbackOnly = () =>
  new ApiError(
    'unauthorized',
    'An API key is required: this server runs in open-dev mode (no key created yet), which answers requests without a key from the same machine (loopback) only. Mint a key with: npm run keys -- create --account ACCOUNT --plan starter.',
  );
