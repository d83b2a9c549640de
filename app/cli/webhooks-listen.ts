// `npm run webhooks:listen`: receives scrape webhooks on this machine during development, as
// `stripe listen` does. It listens on loopback, verifies each delivery's Standard Webhooks signature
// with the server's signing secret (WEBHOOK_SIGNING_SECRET, else the one the server generated and
// stored) and prints every verified event; an unverified one is answered 400 and reported. The
// server accepts a loopback callbackUrl only in development, so the command refuses to run in production.
import { parseArgs } from 'node:util';
import { openCliDatabase } from './cli-database.ts';
import { loadConfig, type Config } from '../../src/platform/config.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { storedWebhookSecret } from '../../src/scrapes/webhooks/signing-secret.ts';
import { listenForWebhooks } from '../../src/scrapes/webhooks/webhook-listener.ts';

/** The secret deliveries are signed with: the configured one, else the one stored in the server's database. */
async function signingSecret(config: Config): Promise<string> {
  if (config.WEBHOOK_SIGNING_SECRET) return config.WEBHOOK_SIGNING_SECRET;
  const cli = await openCliDatabase(config, createLogger('silent'));
  try {
    return await storedWebhookSecret(cli.database.pool);
  } finally {
    await cli.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '4242' } } });
  const config = loadConfig();
  if (config.NODE_ENV !== 'development') {
    process.stderr.write(
      `npm run webhooks:listen is for development: a ${config.NODE_ENV} server never delivers to a loopback address. ` +
        'Give POST /v1/scrapes an https callbackUrl your receiver serves, and verify it with the secret `npm run keys -- webhook-secret` prints.\n',
    );
    process.exit(1);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`--port ${values.port} is not a port number\n`);
    process.exit(1);
  }
  const listener = await listenForWebhooks(await signingSecret(config), port, (line) =>
    process.stdout.write(`${line}\n`),
  );
  process.stdout.write(
    `Listening for signed webhooks on ${listener.url} (development only). Ask for a scrape with it, e.g.\n` +
      `  curl -X POST http://localhost:${config.PORT}/v1/scrapes -H 'content-type: application/json' \\\n` +
      `    -d '{"domain":"riverbasket.store.example","force":true,"callbackUrl":"${listener.url}"}'\n` +
      'Each verified event is printed below; Ctrl-C stops.\n',
  );
  const stop = () => void listener.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`npm run webhooks:listen: ${(error as Error).message}\n`);
  process.exit(1);
});
