// `npm run seed -- --stores N [--seed S] [--database-url URL] [--append | --reset]`
// Seeds the catalog with N synthetic stores (seed-catalog.ts does the work). The database is
// --database-url, else DATABASE_URL, else the embedded PostgreSQL under DATA_DIR (the same one
// `npm start` uses; stop the server first). The schema is migrated first; legacy summaries go to
// MongoDB when MONGODB_URL is set, otherwise into the JSONB table.
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { openLegacyStore } from '../../src/platform/legacy/index.ts';
import { ConfigError, loadConfig } from '../../src/platform/config.ts';
import { DataDirInUseError } from '../../src/platform/database/embedded-postgres.ts';
import { openStructuredStore } from '../../src/platform/database/structured-store.ts';
import { createLogger } from '../../src/platform/logger.ts';
import {
  seedCatalog,
  SeedRefusedError,
  type SeedMode,
  type SeedReport,
} from '../../src/seed/seed-catalog.ts';

const USAGE = `usage: npm run seed -- --stores N [options]

  --stores N            stores to add (required)
  --seed S              seed of the generator (default 1): same seed + N = same data
  --database-url URL    target PostgreSQL (default: DATABASE_URL, else the embedded one under DATA_DIR)
  --append              add to a catalog that already has stores
  --reset               empty the catalog first (stores and everything that references them:
                        products, history, traffic, changes, installs, apps, signals, ads, scrapes)
  --rebuild-indexes M   auto (default: when the load at least doubles the catalog), always, never
  --chunk-size N        stores generated and copied per chunk (default 10000)
  --json                print the report as JSON
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function parseCli() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        stores: { type: 'string' },
        seed: { type: 'string' },
        'database-url': { type: 'string' },
        append: { type: 'boolean', default: false },
        reset: { type: 'boolean', default: false },
        'rebuild-indexes': { type: 'string' },
        'chunk-size': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const integer = (name: string, raw: string | undefined, min: number) => {
    const n = Number(raw);
    if (raw === undefined || !Number.isInteger(n) || n < min)
      fail(`--${name} must be an integer >= ${min}`);
    return n;
  };
  if (values.append && values.reset) fail('--append and --reset exclude each other');
  const rebuild = values['rebuild-indexes'] ?? 'auto';
  if (rebuild !== 'auto' && rebuild !== 'always' && rebuild !== 'never')
    fail('--rebuild-indexes must be auto, always or never');
  const mode: SeedMode = values.reset ? 'reset' : values.append ? 'append' : 'refuse-if-not-empty';
  return {
    stores: integer('stores', values.stores, 1),
    seed: values.seed ?? 1,
    databaseUrl: values['database-url'],
    mode,
    rebuildIndexes: rebuild,
    chunkSize:
      values['chunk-size'] === undefined
        ? undefined
        : integer('chunk-size', values['chunk-size'], 1),
    json: values.json,
  } as const;
}

const thousands = (n: number) => n.toLocaleString('en-US');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 2)} ${units[unit]}`;
}

function printReport(report: SeedReport, target: string): void {
  const t = report.timingsMs;
  const lines = [
    `seeded ${thousands(report.stores)} stores (ids ${report.firstStoreId}-${report.lastStoreId}, seed ${report.seed}, ${report.mode}) into ${target} in ${seconds(t.total)}`,
    `  load ${seconds(t.load)}, indexes ${report.rebuiltIndexes ? seconds(t.indexes) : 'kept in place'}, finish ${seconds(t.finish)}, analyze ${seconds(t.analyze)}, rollups ${seconds(t.rollups)}`,
    '  rows written:',
    ...Object.entries(report.rows).map(
      ([table, n]) => `    ${table.padEnd(24)} ${thousands(n).padStart(14)}`,
    ),
    `  legacy summaries: ${thousands(report.legacySummaries.written)} -> ${report.legacySummaries.target}`,
    `  database size: ${formatBytes(report.databaseBytes)}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** the process exit code: 0 done, 1 refused (catalog not empty), 3 the server runs on this DATA_DIR */
async function main(): Promise<number> {
  const args = parseCli();
  let config;
  try {
    config = loadConfig({
      ...process.env,
      ...(args.databaseUrl ? { DATABASE_URL: args.databaseUrl } : {}),
    });
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  let structured;
  try {
    structured = await openStructuredStore(config, logger);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    process.stderr.write(
      `The server (process ${error.owner}) is running on DATA_DIR ${config.DATA_DIR} and owns its embedded PostgreSQL, ` +
        'so the catalog cannot be seeded from here now.\n' +
        `  - To reseed: stop the server (Ctrl-C where npm start runs), run npm run seed -- ${process.argv.slice(2).join(' ')} again, then npm start.\n` +
        '  - A first npm start on an empty DATA_DIR seeds SEED_STORES stores (default 10000) by itself.\n' +
        '  - Or seed another database: --database-url postgres://... (or DATABASE_URL).\n',
    );
    return 3;
  }
  const legacy = await openLegacyStore({ config, pool: structured.database.pool, logger });
  const bar = new cliProgress.SingleBar(
    {
      format:
        '{phase} [{bar}] {percentage}% | {value}/{total} stores | {duration_formatted} (ETA {eta_formatted})',
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(args.stores, 0, { phase: 'loading' });
  try {
    const report = await seedCatalog({
      pool: structured.database.pool,
      stores: args.stores,
      seed: args.seed,
      mode: args.mode,
      legacy,
      legacyIsJsonbTable: !config.MONGODB_URL,
      rebuildIndexes: args.rebuildIndexes,
      chunkSize: args.chunkSize,
      logger,
      onProgress: (p) => bar.update(p.storesDone, { phase: p.phase }),
    });
    bar.stop();
    if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else printReport(report, structured.description);
    return 0;
  } catch (error) {
    bar.stop();
    if (!(error instanceof SeedRefusedError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  } finally {
    await legacy.close();
    await structured.close();
  }
}

// Exit explicitly: embedded-postgres (imported with the structured store) hooks 'beforeExit' and
// would turn a natural end of the process into exit code 0 whatever process.exitCode says.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`seed failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
