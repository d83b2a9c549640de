// Child processes of the bench: the service started as a user starts it (tsx app/main.ts with its
// environment), its peers (bench/peers/), and the keys CLI. Each gets a free port and is awaited until it
// answers HTTP.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** BENCH_PORTS=4700-4799 keeps the bench's servers in a range (a shared machine); any free port otherwise */
const portRange = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORTS ?? '');
let nextInRange = portRange ? Number(portRange[1]) : 0;

export async function freePort(): Promise<number> {
  if (!portRange) return listenOn(0);
  while (nextInRange <= Number(portRange[2])) {
    const port = nextInRange++;
    try {
      return await listenOn(port);
    } catch {
      // taken: the next one
    }
  }
  throw new Error(`no free port left in BENCH_PORTS=${process.env.BENCH_PORTS}`);
}

function listenOn(wanted: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(wanted, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export interface Running {
  baseUrl: string;
  /** the server's process id (its CPU time is read from /proc) */
  pid: number;
  stop(): Promise<void>;
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${url}: the process exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await sleep(250);
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** Starts `node [nodeArgs...] --import tsx [--import preload...] script` with env and waits until `readyPath` answers. */
export async function startNode(
  script: string,
  env: Record<string, string>,
  {
    preloads = [],
    readyPath = '/',
    nodeArgs = [],
  }: { preloads?: string[]; readyPath?: string; nodeArgs?: string[] } = {},
): Promise<Running> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', ...preloads.flatMap((p) => ['--import', p]), script],
    {
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}${readyPath}`, child, 120_000);
  return {
    baseUrl,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

/** Mints a pro key for the bench account with the keys CLI, as an operator would. */
export function createBenchKey(databaseUrl: string): string {
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'app/cli/keys.ts',
      'create',
      '--account',
      'bench',
      '--plan',
      'pro',
      '--name',
      'npm run bench',
    ],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(`keys create failed: ${run.stderr}`);
  return run.stdout.trim();
}

export function revokeKey(databaseUrl: string, key: string, prefixLength: number): void {
  spawnSync(
    process.execPath,
    ['--import', 'tsx', 'app/cli/keys.ts', 'revoke', key.slice(0, prefixLength)],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    },
  );
}
