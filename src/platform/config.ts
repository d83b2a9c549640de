// Configuration: read from the environment once at start, validated with zod. A bad value stops
// the start with a message naming the variable. README.md has the same table for people.
import { existsSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { parseEgressOverrides } from './egress/overrides.ts';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(`${p}://`)), {
      message: `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });

const isAddressOrCidr = (entry: string) => {
  if (!entry.includes('/')) return ipaddr.isValid(entry);
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
};

/** TRUST_PROXY: a hop count, or the proxies' addresses and CIDRs; '' = none (the TCP peer is the client) */
const trustProxy = z
  .string()
  .trim()
  .default('')
  .transform((text, context): number | string[] | undefined => {
    if (text === '') return undefined;
    if (/^\d+$/.test(text)) return Number(text);
    const entries = text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const unreadable = entries.filter((entry) => !isAddressOrCidr(entry));
    if (unreadable.length > 0 || entries.length === 0) {
      context.addIssue({
        code: 'custom',
        message: `must be a hop count or IP addresses/CIDRs, comma-separated; cannot read ${unreadable.join(', ') || text}`,
      });
      return z.NEVER;
    }
    return entries;
  });

const int = (def: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(def);

/** where Debian's chromium package puts its browser */
const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('0.0.0.0'),
    PORT: int(8080, 0, 65535),
    /** PostgreSQL for the structured store; absent = embedded PostgreSQL under DATA_DIR */
    DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
    /** streaming replicas of DATABASE_URL for catalog reads, comma-separated; absent = every read on the primary */
    DATABASE_READ_URL: z
      .string()
      .trim()
      .default('')
      .transform((text) =>
        text
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean),
      )
      .refine((urls) => urls.every((u) => /^postgres(ql)?:\/\//.test(u) && URL.canParse(u)), {
        message: 'must be one or more postgres:// URLs, comma-separated',
      }),
    /** a replica whose staleness passes this serves no reads until it catches up; its reads go to the primary */
    DATABASE_READ_MAX_LAG_MS: int(5_000, 100, 600_000),
    /** whole months of daily history and change records kept before the current one; older month partitions are dropped; 0 = keep all */
    HISTORY_RETENTION_MONTHS: int(24, 0, 1_200),
    /** MongoDB for the legacy store; absent = JSONB table in the structured PostgreSQL */
    MONGODB_URL: optionalUrl(['mongodb', 'mongodb+srv']),
    MONGODB_DB: z.string().min(1).default('store_intelligence'),
    /** the driver's connect and server-selection timeout: how soon a read fails while MongoDB is down */
    MONGODB_CONNECT_TIMEOUT_MS: int(5_000, 100, 120_000),
    /** how often the driver checks the server: how soon a MongoDB that came back is used again */
    MONGODB_HEARTBEAT_MS: int(2_000, 100, 60_000),
    /** Redis for pub/sub, shared counters and caches; absent = in-process (single instance) */
    REDIS_URL: optionalUrl(['redis', 'rediss']),
    DATA_DIR: z.string().min(1).default('.data'),
    /** port of the embedded PostgreSQL (only without DATABASE_URL); unset = chosen free at the first start and recorded in DATA_DIR */
    EMBEDDED_PG_PORT: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.coerce.number().int().min(1).max(65535).optional(),
    ),
    /** stores seeded on a start with an empty catalog; 0 skips seeding */
    SEED_STORES: int(10_000, 0, 10_000_000),
    /** per-request statement timeout in the structured store; past it: query_timeout */
    QUERY_TIMEOUT_MS: int(5_000, 100, 600_000),
    /**
     * open-dev mode (data routes without a key, loopback clients only; never in production):
     * until-first-key = until the first key is created, and never again; while-no-live-key = also
     * whenever every key is revoked (an operator's explicit choice); off = never
     */
    OPEN_DEV_MODE: z
      .enum(['until-first-key', 'while-no-live-key', 'off'])
      .default('until-first-key'),
    /** requests per minute and client address that bring no valid credential (bad or missing key, anonymous GraphQL) */
    UNAUTHENTICATED_PER_MINUTE: int(60, 1, 1_000_000),
    /** which proxies' X-Forwarded-For names the client (for the per-address limits): a hop count, or addresses/CIDRs comma-separated; unset = the TCP peer */
    TRUST_PROXY: trustProxy,
    /** the whole request (headers and body) must arrive within this; a slower client gets bad_request and its socket closed */
    REQUEST_TIMEOUT_MS: int(10_000, 100, 600_000),
    /** how long a stopping server lets requests in flight finish before it closes their sockets */
    SHUTDOWN_GRACE_MS: int(2_000, 0, 60_000),
    /** how long a catalog GET response may be served from memory (src/http/response-cache.ts); 0 = no response cache */
    RESPONSE_CACHE_TTL_MS: int(10_000, 0, 60_000),
    /** a frontend's persisted-document manifest (graphql-codegen client preset's persisted-documents.json) served by hash beside ours; unset = none */
    PERSISTED_DOCUMENTS_FILE: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v === '' ? undefined : v))
      .refine((v) => v === undefined || existsSync(v), { message: 'must name an existing file' }),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    /** auto = pretty on a terminal, JSON lines otherwise (src/platform/logger.ts) */
    LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
    /** the web app's service credential (header X-Service-Token) for the key-management GraphQL fields; unset = those fields refuse every caller */
    WEB_APP_SERVICE_TOKEN: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v === '' ? undefined : v))
      .refine((v) => v === undefined || v.length >= 32, {
        message: 'must be at least 32 characters',
      }),
    /** JSON laid over the plans table (src/access/plans.ts), e.g. {"starter":{"perMinute":120}} */
    PLAN_LIMITS_JSON: z.string().trim().optional(),
    /** prefix of the quota and rate-limit counters in Redis; the web app uses the same keys */
    QUOTA_REDIS_PREFIX: z.string().min(1).default('store-intelligence:quota'),
    /** a gateway's lease on its provisional charges in Redis: once a dead gateway's lapses, another refunds them (src/access/provisional-charges.ts) */
    QUOTA_LEASE_MS: int(15_000, 1_000, 600_000),
    /** public base URL used in discovery documents; default http://localhost:PORT */
    PUBLIC_BASE_URL: optionalUrl(['http', 'https']),
    /** run the job worker (scrapes, webhooks, re-observation, alerts, rollups) inside the gateway; false = only `npm run worker` processes run jobs */
    WORKER_IN_PROCESS: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    /** jobs one worker process runs at the same time */
    WORKER_CONCURRENCY: int(2, 1, 64),
    /** named hosts (or *.domain wildcards) sent to local origins, for tests and development only, e.g. shop-a.test=http://127.0.0.1:9101; empty = none; refused in production */
    EGRESS_OVERRIDES: z
      .string()
      .trim()
      .default('')
      .transform((text, ctx) => {
        try {
          return parseEgressOverrides(text);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
    /** per outbound request (scrapes, webhooks): connect + headers + body */
    EGRESS_TIMEOUT_MS: int(10_000, 100, 120_000),
    /** largest response body read from a storefront; larger ones fail the request */
    EGRESS_MAX_BYTES: int(5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    /** politeness: least time between two requests to the same host from one process */
    EGRESS_HOST_INTERVAL_MS: int(500, 0, 60_000),
    /** where a storefront owner reads who crawls them and how to reach us; sent in the crawler's User-Agent. Unset = PUBLIC_BASE_URL/v1/docs.md#crawler */
    CRAWLER_CONTACT_URL: optionalUrl(['https', 'http']),
    /** Node's own variable: a PEM file of extra CAs; outbound TLS trusts Node's roots plus these, nothing weaker */
    NODE_EXTRA_CA_CERTS: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
    /** headless Chromium for storefront screenshots; unset = /usr/bin/chromium when it exists; empty = no screenshots */
    CHROMIUM_PATH: z
      .string()
      .trim()
      .optional()
      .transform((v) =>
        v === undefined
          ? existsSync(DEFAULT_CHROMIUM)
            ? DEFAULT_CHROMIUM
            : undefined
          : v || undefined,
      ),
    /** Standard Webhooks signing secret (whsec_ + base64); unset = one generated once and kept in the database */
    WEBHOOK_SIGNING_SECRET: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v === '' ? undefined : v))
      .refine((v) => v === undefined || /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/.test(v), {
        message: 'must be whsec_ followed by at least 24 random bytes in base64',
      }),
    /** attempts per webhook delivery before it is marked failed (graphile-worker backoff: e^attempt seconds) */
    WEBHOOK_MAX_ATTEMPTS: int(12, 1, 25),
    /** an alert's alert.matched webhooks are batched: at most one batch per alert in this many milliseconds */
    ALERT_WEBHOOK_INTERVAL_MS: int(60_000, 100, 86_400_000),
    /** serve the synthetic catalog's storefronts (reserved .example names only) in-process, so scrapes and probes of seeded stores work offline; default: on except in production, where it is refused */
    DEMO_STOREFRONTS: z
      .enum(['true', 'false'])
      .optional()
      .transform((v) => (v === undefined ? undefined : v === 'true')),
    /** run the catalog's re-observation scheduler and discovery in this process's job worker (src/crawler) */
    CATALOG_SCHEDULER: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    /** observations (scheduled and discovery) in flight at once across every worker process */
    CATALOG_CONCURRENCY: int(8, 1, 10_000),
    /** observations one worker process runs at once (a job runner of their own: scrapes never wait behind them) */
    CATALOG_WORKER_CONCURRENCY: int(4, 1, 1_000),
    /** offer the sites an observed homepage links to as discovery candidates */
    CATALOG_DISCOVER_LINKS: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    /** discovery's budgets for linked candidates (src/crawler/discovery-budget.ts): links followed from an imported or scraped store at most */
    CATALOG_DISCOVERY_MAX_DEPTH: int(3, 0, 100),
    /** linked candidates validated per 24 hours in all */
    CATALOG_DISCOVERY_DAILY: int(5_000, 0, 10_000_000),
    /** linked candidates validated per 24 hours per linking store */
    CATALOG_DISCOVERY_PER_SOURCE: int(10, 0, 100_000),
    /** linked candidates validated per 24 hours per registrable domain */
    CATALOG_DISCOVERY_PER_DOMAIN: int(10, 0, 100_000),
    /** minutes between a tracked watch's scheduled inventory probes */
    SIGNAL_PROBE_INTERVAL_MINUTES: int(360, 1, 10_080),
    /** whole months of Signals inventory snapshots and insights kept before the current one; older month partitions are dropped; 0 = keep all */
    SIGNALS_RETENTION_MONTHS: int(24, 0, 1_200),
    /** ad library adapters (src/signals/ads): each network is used only when its base URL is set; the token is sent as a bearer */
    ADS_META_BASE_URL: optionalUrl(['https', 'http']),
    ADS_META_TOKEN: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined),
    ADS_TIKTOK_BASE_URL: optionalUrl(['https', 'http']),
    ADS_TIKTOK_TOKEN: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined),
    ADS_GOOGLE_BASE_URL: optionalUrl(['https', 'http']),
    ADS_GOOGLE_TOKEN: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined),
  })
  .refine((c) => c.DATABASE_READ_URL.length === 0 || c.DATABASE_URL !== undefined, {
    path: ['DATABASE_READ_URL'],
    message:
      'needs DATABASE_URL: replicas follow a primary the service is given, not the embedded PostgreSQL',
  })
  .superRefine((config, ctx) => {
    // overrides skip the private-address refusal for the hosts they name: never in production
    if (config.NODE_ENV === 'production' && config.EGRESS_OVERRIDES.size > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['EGRESS_OVERRIDES'],
        message: 'is for tests and development only; unset it when NODE_ENV is production',
      });
    }
    if (config.NODE_ENV === 'production' && config.DEMO_STOREFRONTS === true) {
      ctx.addIssue({
        code: 'custom',
        path: ['DEMO_STOREFRONTS'],
        message: 'is for development only; unset it when NODE_ENV is production',
      });
    }
  });

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** For process entry points: the configuration, or its message on stderr and exit code 1. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
