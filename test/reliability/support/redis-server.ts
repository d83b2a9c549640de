// A Redis of the test's own (the machine's shared one must never be stopped): redis-server on a
// free loopback port, without persistence, that the test can stop and start again on that port.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../../support/free-port.ts';

/** REDIS_SERVER_BINARY, else the first redis-server on PATH; undefined on a machine without one. */
const REDIS_SERVER_BINARY =
  process.env.REDIS_SERVER_BINARY ??
  (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((dir) => path.join(dir, 'redis-server'))
    .find((file) => existsSync(file));
export const hasRedisServer = REDIS_SERVER_BINARY !== undefined && existsSync(REDIS_SERVER_BINARY);

export interface OwnRedis {
  url: string;
  port: number;
  /** kills the server (an abrupt loss); `start` brings it back on the same port and data */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** stops it for good and removes its data directory */
  close(): Promise<void>;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * `persistent`: an append-only file fsynced on every write, in a directory of its own, so a restart
 * (even after SIGKILL) keeps every counter, as a production Redis configured for it does.
 * `port`: a fixed port instead of a free one.
 */
export async function startOwnRedis(
  options: { persistent?: boolean; port?: number } = {},
): Promise<OwnRedis> {
  const port = options.port ?? (await freePort());
  const dir = options.persistent ? await mkdtemp(path.join(tmpdir(), 'own-redis-')) : undefined;
  const persistence = dir
    ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir]
    : ['--appendonly', 'no'];
  let child: ChildProcess | undefined;
  const own: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      child = spawn(
        REDIS_SERVER_BINARY!,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence],
        {
          stdio: 'ignore',
        },
      );
      const deadline = Date.now() + 10_000;
      while (!(await accepts(port))) {
        if (child.exitCode !== null)
          throw new Error(`redis-server exited with ${child.exitCode} on port ${port}`);
        if (Date.now() > deadline)
          throw new Error(`redis-server did not listen on ${port} within 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      // an abrupt loss, as a crashed or partitioned Redis looks to its clients
      running.kill('SIGKILL');
      await exited;
    },
    async close() {
      await own.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
  await own.start();
  return own;
}
