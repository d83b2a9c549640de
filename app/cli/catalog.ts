// `npm run catalog -- import FILE`: offers the domains of FILE (import-file.ts) to the catalog as
// discovery candidates; the scheduler validates each as a storefront before it enters the catalog.
// `npm run catalog -- status`: the crawler's state as the operations console shows it, as JSON.
// Works whether or not the server runs (the keys CLI's database rules); a tick is queued so the
// workers start on the candidates at once.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openCliDatabase } from './cli-database.ts';
import { ConfigError, loadConfig } from '../../src/platform/config.ts';
import { migrateJobQueue } from '../../src/platform/jobs/job-queue.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { offerCandidates } from '../../src/storefront/catalog-candidates.sql.ts';
import { queueTick } from '../../src/crawler/catalog-tick.ts';
import { crawlerStatus } from '../../src/crawler/crawler-status.sql.ts';
import { parseImport, type ImportParse } from '../../src/crawler/import-file.ts';

export const USAGE = `usage:
  npm run catalog -- import FILE   offer the domains of FILE (one a line, or CSV with a domain, url or Store URL column)
  npm run catalog -- status        the crawler's schedule, queue and recent observations, as JSON
`;

/**
 * Text from the file (or its name) as the terminal may show it: control characters (C0, DEL, C1:
 * the escape sequences that recolour, retitle or overwrite a terminal) written as \uXXXX.
 */
export const printable = (text: string): string =>
  text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it escapes
    /[\u0000-\u001f\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** What an import did, for the terminal: counts, then up to 20 of the lines that are not domains. */
export function importReport(
  file: string,
  parsed: ImportParse,
  offered: number,
  database: string,
): string {
  const known = parsed.domains.length - offered;
  let text =
    `${printable(file)}: ${parsed.domains.length} domains, ${offered} offered to the catalog (${database}), ` +
    `${known} already in the catalog or offered before, ${parsed.duplicates} repeated, ${parsed.invalid.length} not domains\n`;
  for (const bad of parsed.invalid.slice(0, 20))
    text += `  line ${bad.line}: "${printable(bad.value.slice(0, 80))}" ${bad.rule}\n`;
  if (parsed.invalid.length > 20) text += `  ... and ${parsed.invalid.length - 20} more\n`;
  return text;
}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

const BATCH = 1_000;

export async function runCatalogCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
): Promise<number> {
  const [command, file, ...rest] = argv;
  if (!((command === 'import' && file && rest.length === 0) || (command === 'status' && !file))) {
    io.err(USAGE);
    return 2;
  }
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  let text = '';
  if (command === 'import') {
    try {
      text = await readFile(file!, 'utf8');
    } catch (error) {
      io.err(`cannot read ${printable(file!)}: ${printable((error as Error).message)}\n`);
      return 1;
    }
  }
  const db = await openCliDatabase(config, createLogger('error'));
  try {
    const pool = db.database.pool;
    if (command === 'status') {
      io.out(`${JSON.stringify(await crawlerStatus(pool, new Date()), null, 2)}\n`);
      return 0;
    }
    const parsed = parseImport(text);
    await migrateJobQueue(pool);
    let offered = 0;
    for (let i = 0; i < parsed.domains.length; i += BATCH) {
      offered += await offerCandidates(pool, parsed.domains.slice(i, i + BATCH), {
        source: 'import',
        foundOn: path.basename(file!),
        now: new Date(),
      });
    }
    await queueTick(pool);
    const known = parsed.domains.length - offered;
    io.err(importReport(file!, parsed, offered, db.description));
    io.out(
      `${JSON.stringify({ domains: parsed.domains.length, offered, known, repeated: parsed.duplicates, invalid: parsed.invalid.length })}\n`,
    );
    return 0;
  } finally {
    await db.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const io: CliIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };
  runCatalogCli(process.argv.slice(2), process.env, io).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}
