// The access layer in one object: who is calling (identify: an API key, the web app's credential,
// open-dev mode) and what a request may cost (admission.ts: plans, quotas, rate). The HTTP hook
// (http-hook.ts) and the WebSocket gate identify through it, and every charge goes through its
// admission, so REST, GraphQL over HTTP and over WebSocket, and MCP follow the same rules.
import { timingSafeEqual, createHash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../platform/errors.ts';
import type { Services } from '../platform/services.ts';
import {
  anyLiveKey,
  isLoopbackClient,
  KEYS_CHANGED_CHANNEL,
  KeyAuthenticator,
  missingKey,
  openDevLoopbackOnly,
  OpenDevMode,
} from './authenticate.ts';
import { asInvalidToken } from './challenge.ts';
import { clientKey } from './client-address.ts';
import { createCounters, type Counters, type MaybePromise } from './counters.ts';
import { presentedApiKey, presentedServiceToken } from './credentials.ts';
import { Admission } from './admission.ts';
import { resolvePlans } from './plans.ts';
import { Quotas } from './quota.ts';
import type { Principal } from './principal.ts';

export interface IdentifyOptions {
  /** what to call a request without credentials when open-dev mode is off: anonymous (/graphql) or unauthorized */
  allowAnonymous: boolean;
  /** the client's address (after TRUST_PROXY), for the per-address limits; counted by clientKey */
  client: string;
  /** the client's connection (its socket): a key presented again on it is not hashed again */
  connection?: object;
}

export interface Access {
  readonly counters: Counters;
  /** what a request may cost, and its charge: the one place a request is charged */
  readonly admission: Admission;
  /** The caller, at once for a cached key (nearly every request) or through a promise; never throws, it rejects. */
  identify(headers: IncomingHttpHeaders, options: IdentifyOptions): MaybePromise<Principal>;
  isOpenDevMode(): Promise<boolean>;
  /**
   * Headers that identify a request as `principal` until `end()`: the server's own requests before
   * it listens (app/warm-up.ts), so no outside caller can ever present them.
   */
  internalCredential(principal: Principal): InternalCredential;
  close(): Promise<void>;
}

export interface InternalCredential {
  headers: Record<string, string>;
  end(): void;
}

/** The header of an internal credential (never documented: it identifies no one once the server listens) */
export const INTERNAL_CREDENTIAL_HEADER = 'x-internal-credential';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

export async function createAccess(services: Services): Promise<Access> {
  const { config, logger, db } = services;
  const log = logger.child({ component: 'access' });
  const plans = resolvePlans(config.PLAN_LIMITS_JSON);
  const counters = createCounters({
    redisUrl: config.REDIS_URL,
    keyPrefix: config.QUOTA_REDIS_PREFIX,
    logger,
    leaseMs: config.QUOTA_LEASE_MS,
  });
  const admission = new Admission(new Quotas(counters, plans), config.UNAUTHENTICATED_PER_MINUTE);
  const authenticator = new KeyAuthenticator(db.pool, logger);
  // not awaited: with Redis down at start the subscription completes once it is back (until then
  // the cache's TTL bounds how long a revocation takes)
  const keysChanged = services.pubsub
    .subscribe(KEYS_CHANGED_CHANNEL, () => authenticator.forgetKeys(), {})
    .catch((error: unknown) => {
      log.warn(
        { err: { message: (error as Error).message } },
        'not subscribed to key changes: revocations apply within the key cache TTL',
      );
      return undefined;
    });
  const serviceToken = config.WEB_APP_SERVICE_TOKEN
    ? sha256(config.WEB_APP_SERVICE_TOKEN)
    : undefined;

  const openDev = new OpenDevMode(config, db.pool);
  const isOpenDevMode = () => openDev.isOn();

  if (await isOpenDevMode()) {
    log.warn(
      'OPEN-DEV MODE: no API key exists, so data routes accept requests WITHOUT a key from this machine (loopback ' +
        'clients only). Create one with `npm run keys -- create --account ACCOUNT --plan starter` to require keys. ' +
        'Never used with NODE_ENV=production.',
    );
  } else if (!(await anyLiveKey(db.pool))) {
    log.warn(
      'no API key is live: every data request is refused (401) until one is created with `npm run keys -- create`',
    );
  }

  // the one internal credential in force (a random secret's hash, and whom it names), if any
  let internal: { hash: Buffer; principal: Principal } | undefined;
  const internalPrincipal = (headers: IncomingHttpHeaders): Principal | undefined => {
    const presented = headers[INTERNAL_CREDENTIAL_HEADER];
    if (internal === undefined || typeof presented !== 'string') return undefined;
    return timingSafeEqual(sha256(presented), internal.hash) ? internal.principal : undefined;
  };

  const identifyOnce = (
    headers: IncomingHttpHeaders,
    options: IdentifyOptions,
  ): MaybePromise<Principal> => {
    const internalCaller = internalPrincipal(headers);
    if (internalCaller) return internalCaller;
    const token = presentedServiceToken(headers);
    if (token !== undefined) {
      if (!serviceToken || !timingSafeEqual(sha256(token), serviceToken)) {
        throw asInvalidToken(new ApiError('unauthorized', 'The service token is not valid.'));
      }
      return { kind: 'webApp' };
    }
    const key = presentedApiKey(headers);
    if (key !== undefined) return authenticator.authenticate(key, options.connection);
    return isOpenDevMode().then((open): Principal => {
      if (open && isLoopbackClient(options.client))
        return { kind: 'openDev', client: clientKey(options.client) };
      if (options.allowAnonymous) return { kind: 'anonymous' };
      throw open ? openDevLoopbackOnly() : missingKey();
    });
  };

  // a caller without a valid credential counts against its address's per-minute limit
  const identified = async (principal: Principal, options: IdentifyOptions): Promise<Principal> => {
    await admission.chargeUnauthenticated(clientKey(options.client));
    return principal;
  };
  const refused = async (error: unknown, options: IdentifyOptions): Promise<never> => {
    if (error instanceof ApiError && error.code === 'unauthorized') {
      await admission.chargeUnauthenticated(clientKey(options.client));
    }
    throw error;
  };

  const access: Access = {
    counters,
    admission,
    identify(headers, options) {
      let principal: MaybePromise<Principal>;
      try {
        principal = identifyOnce(headers, options);
      } catch (error) {
        return refused(error, options);
      }
      if (principal instanceof Promise) {
        return principal.then(
          (settled) => (settled.kind === 'anonymous' ? identified(settled, options) : settled),
          (error: unknown) => refused(error, options),
        );
      }
      return principal.kind === 'anonymous' ? identified(principal, options) : principal;
    },
    isOpenDevMode,
    internalCredential(principal) {
      const secret = randomBytes(32).toString('base64url');
      const current = { hash: sha256(secret), principal };
      internal = current;
      return {
        headers: { [INTERNAL_CREDENTIAL_HEADER]: secret },
        end: () => {
          if (internal === current) internal = undefined;
        },
      };
    },
    close: async () => {
      const subscription = await Promise.race([keysChanged, Promise.resolve(undefined)]);
      if (subscription !== undefined) services.pubsub.unsubscribe(subscription);
      await counters.close();
    },
  };
  return access;
}
