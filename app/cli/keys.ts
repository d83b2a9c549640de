// `npm run keys -- create --account ACCOUNT --plan starter|pro [--scope signals:read] [--name N]`
// `npm run keys -- list [--account ACCOUNT] [--all]`      `npm run keys -- revoke KEY_ID|PREFIX`
// Works whether or not the server runs (cli-database.ts). `create` prints the key alone on stdout,
// once (so KEY=$(npm run -s keys -- create ...) works); everything else goes to stderr.
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig, type Config } from '../../src/platform/config.ts';
import { ApiError } from '../../src/platform/errors.ts';
import { createLogger } from '../../src/platform/logger.ts';
import {
  listApiKeys,
  mintApiKey,
  revokeApiKey,
  type ApiKeyRecord,
} from '../../src/access/api-keys.ts';
import { announceKeysChanged, KEY_CACHE_TTL_MS } from '../../src/access/authenticate.ts';
import { createPubSub } from '../../src/platform/pubsub/pubsub.ts';
import { openCliDatabase } from './cli-database.ts';
import type { Database } from '../../src/platform/database/database.ts';
import { storedWebhookSecret } from '../../src/scrapes/webhooks/signing-secret.ts';
import type { AccountPlan } from '../../src/access/plans.ts';

export const USAGE = `usage:
  npm run keys -- create --account ACCOUNT --plan starter|pro [--scope signals:read|operations:read] [--name NAME] [--account-name NAME]
  npm run keys -- list [--account ACCOUNT] [--all]
  npm run keys -- revoke KEY_ID|PREFIX
  npm run keys -- webhook-secret

  create   mints a key for the account (created on first use, its plan set to --plan) and prints it once;
           --scope signals:read makes a partner service key; --scope operations:read opens the
           operations console (the crawler's state) to an operator's key
  list     live keys (--all: revoked ones too), optionally of one account
  revoke   revokes a key by its id or its displayed prefix; servers sharing REDIS_URL are told at
           once, others stop accepting it within 5 seconds (their key cache)
  webhook-secret  prints the secret scrape webhooks are signed with (WEBHOOK_SIGNING_SECRET, or the one
           the service generated and stored), for receivers to verify signatures
`;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

class UsageError extends Error {}

/** Servers cache keys for KEY_CACHE_TTL_MS; with a shared Redis they can be told to drop them now. */
async function announceToServers(config: Config): Promise<void> {
  if (!config.REDIS_URL) return;
  const logger = createLogger('error');
  const pubsub = createPubSub({ redisUrl: config.REDIS_URL, logger });
  try {
    await Promise.race([
      announceKeysChanged(pubsub, logger),
      new Promise((resolve) => setTimeout(resolve, KEY_CACHE_TTL_MS).unref()),
    ]);
  } finally {
    await pubsub.close();
  }
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        account: { type: 'string' },
        'account-name': { type: 'string' },
        plan: { type: 'string' },
        scope: { type: 'string', multiple: true },
        name: { type: 'string' },
        all: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

const describeKey = (k: ApiKeyRecord) =>
  [
    String(k.id).padEnd(6),
    k.prefix.padEnd(14),
    k.accountExternalId.padEnd(20),
    k.plan.padEnd(8),
    (k.scopes.join(',') || '-').padEnd(14),
    (k.name ?? '-').padEnd(16),
    k.createdAt.toISOString(),
    k.lastUsedAt?.toISOString() ?? 'never',
    k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'live',
  ].join(' ');

async function run(database: Database, config: Config, argv: string[], io: CliIo): Promise<void> {
  const { prisma } = database;
  const { values, positionals } = parse(argv);
  const [command, ...rest] = positionals;
  switch (command) {
    case 'create': {
      if (!values.account) throw new UsageError('create needs --account ACCOUNT');
      if (!values.plan) throw new UsageError('create needs --plan starter|pro');
      if (rest.length) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
      if (!['free', 'starter', 'pro'].includes(values.plan))
        throw new UsageError(`--plan must be starter or pro, not ${values.plan}`);
      const { key, record } = await mintApiKey(prisma, {
        accountExternalId: values.account,
        plan: values.plan as AccountPlan,
        accountName: values['account-name'],
        name: values.name,
        scopes: values.scope ?? [],
      });
      io.err(
        `Created key ${record.id} (${record.prefix}…) for account ${record.accountExternalId} on the ${record.plan} plan` +
          `${record.scopes.length ? `, scopes ${record.scopes.join(', ')}` : ''}. It is shown only this once; store it now:`,
      );
      io.out(key);
      return;
    }
    case 'list': {
      if (rest.length) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
      const keys = await listApiKeys(prisma, {
        accountExternalId: values.account,
        includeRevoked: values.all,
      });
      io.out(
        [
          'id    ',
          'prefix        ',
          'account             ',
          'plan    ',
          'scopes        ',
          'name            ',
          'created',
          'last used',
          'state',
        ].join(' '),
      );
      for (const key of keys) io.out(describeKey(key));
      if (keys.length === 0)
        io.err('no keys: the server runs in open-dev mode (unless NODE_ENV=production)');
      return;
    }
    case 'revoke': {
      if (rest.length !== 1) throw new UsageError('revoke needs exactly one KEY_ID or PREFIX');
      const record = await revokeApiKey(prisma, rest[0]!);
      await announceToServers(config);
      io.err(
        `Revoked key ${record.id} (${record.prefix}…) of account ${record.accountExternalId}.`,
      );
      return;
    }
    case 'webhook-secret': {
      if (rest.length !== 0) throw new UsageError('webhook-secret takes no arguments');
      io.out(config.WEBHOOK_SIGNING_SECRET ?? (await storedWebhookSecret(database.pool)));
      return;
    }
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'a command is required');
  }
}

/** Runs one command; the exit code: 0 done, 1 refused (e.g. free plan, unknown key), 2 usage. */
export async function runKeysCommand(argv: string[], io: CliIo, config: Config): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(USAGE);
    return 0;
  }
  const logger = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  let db: Awaited<ReturnType<typeof openCliDatabase>> | undefined;
  try {
    parse(argv); // usage mistakes before opening (and maybe starting) a database
    db = await openCliDatabase(config, logger);
    await run(db.database, config, argv, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ApiError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  } finally {
    await db?.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  const io: CliIo = {
    out: (t) => process.stdout.write(`${t}\n`),
    err: (t) => process.stderr.write(`${t}\n`),
  };
  runKeysCommand(process.argv.slice(2), io, config).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`keys: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
