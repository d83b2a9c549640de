// The embedded PostgreSQL under real processes, as a user meets it: a service killed with kill -9
// starts again on the same DATA_DIR; a postmaster that dies under a running service is restarted
// while data routes answer 503 with Retry-After and /v1/health says why; two checkouts (two
// DATA_DIRs) run side by side with no port settings and the keys CLI mints into the right one; a
// terminal's Ctrl-C (SIGINT to the whole process group) stops the service without an error line.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.ts';

const run = promisify(execFile);

interface Service {
  child: ChildProcess;
  port: number;
  dataDir: string;
  output: () => string;
  exited: Promise<number | null>;
}

const running: Service[] = [];
const dirs: string[] = [];

function envFor(dataDir: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_STORES: '0',
    LOG_LEVEL: 'info',
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'MONGODB_URL', 'EMBEDDED_PG_PORT'])
    delete env[name];
  return env;
}

/** The service as its own process group (as a terminal starts it), the node process itself (no wrapper). */
async function start(dataDir: string, port?: number): Promise<Service> {
  const servicePort = port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'app/main.ts'], {
    env: envFor(dataDir, servicePort),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const service = { child, port: servicePort, dataDir, output: () => output, exited };
  running.push(service);
  await until(
    async () => (await status(service, '/v1/health')) === 200,
    90_000,
    () => `not healthy:\n${output}`,
  );
  return service;
}

async function status(
  service: Service,
  url: string,
  headers: Record<string, string> = {},
): Promise<number | undefined> {
  try {
    return (await fetch(`http://127.0.0.1:${service.port}${url}`, { headers })).status;
  } catch {
    return undefined;
  }
}

async function until(
  condition: () => Promise<boolean>,
  timeoutMs: number,
  what: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(what());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const postmasterPid = async (dataDir: string) =>
  Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
/** running, not merely an unreaped zombie */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = (() => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return '';
    }
  })();
  return !/\) [ZX] /.test(stat);
};
const errorLines = (output: string) =>
  output.split('\n').filter((line) => /"level":(50|60)/.test(line));

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sig-supervision-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  for (const service of running) {
    if (service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  }
  for (const dir of dirs) {
    const pid = await postmasterPid(dir).catch(() => 0);
    if (pid && alive(pid)) process.kill(pid, 'SIGQUIT');
    await rm(dir, { recursive: true, force: true });
  }
});

// Each start initialises or recovers a cluster and is waited on for up to 90 s; a test starts up to two.
describe('the embedded PostgreSQL, supervised', { timeout: 240_000 }, () => {
  it('starts again on the same DATA_DIR after the service was killed with kill -9', async () => {
    const dir = await dataDir();
    const first = await start(dir);
    const orphan = await postmasterPid(dir);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(alive(orphan)).toBe(true); // the postmaster outlived its service

    const second = await start(dir, first.port);
    expect(await status(second, '/v1/stores?limit=1')).toBe(200);
    expect(second.output()).toContain('still running (its service was killed): stopping it first');
    expect(alive(orphan)).toBe(false);

    // a second service on a DATA_DIR in use is refused, and leaves the running one alone
    const intruder = spawn(process.execPath, ['--import', 'tsx', 'app/main.ts'], {
      env: envFor(dir, await freePort()),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    intruder.stdout?.on('data', (chunk) => (said += chunk));
    expect(await new Promise((resolve) => intruder.once('exit', resolve))).toBe(1);
    expect(said).toContain('is in use by process');
    expect(await status(second, '/v1/stores?limit=1')).toBe(200);
  });

  it('answers 503 with Retry-After while its postmaster is down, says why in /v1/health, and restarts it', async () => {
    const service = await start(await dataDir());
    process.kill(await postmasterPid(service.dataDir), 'SIGKILL');
    // while it is down, a data route refuses with 503 and health says why (both seen during the outage)
    let refused: Response | undefined;
    let healthDown: any;
    await until(
      async () => {
        const res = await fetch(`http://127.0.0.1:${service.port}/v1/stores?limit=1`);
        if (res.status === 503) refused ??= res;
        const health = await fetch(`http://127.0.0.1:${service.port}/v1/health`);
        const report = health.status === 503 ? await health.json() : undefined;
        // health says why: the supervisor's own account of the outage, not only "not reachable"
        if (/stopped unexpectedly; restarting it/.test(report?.backends.structured.reason))
          healthDown ??= report;
        return refused !== undefined && healthDown !== undefined;
      },
      20_000,
      () =>
        'never saw both a refused data route and an unhealthy /v1/health while PostgreSQL was down',
    );
    expect(refused!.headers.get('retry-after')).toBe('5');
    expect(await refused!.json()).toMatchObject({
      error: { code: 'internal', details: { reason: 'database_unavailable' } },
    });
    expect(healthDown.backends.structured).toMatchObject({
      ok: false,
      backend: 'embedded-postgres',
    });
    await until(
      async () => (await status(service, '/v1/stores?limit=1')) === 200,
      60_000,
      () => `never recovered:\n${service.output()}`,
    );
    // the restart is logged once the supervisor's pg_ctl returns, which can be just after the first query succeeds
    await until(
      async () => service.output().includes('embedded PostgreSQL restarted'),
      10_000,
      () => `no restart logged:\n${service.output()}`,
    );
  });

  it('runs two DATA_DIRs side by side with no port settings; the keys CLI mints into the cluster of its DATA_DIR', async () => {
    const [one, two] = [await start(await dataDir()), await start(await dataDir())];
    const ports = await Promise.all(
      [one, two].map(async (s) =>
        (await readFile(path.join(s.dataDir, 'postgres.port'), 'utf8')).trim(),
      ),
    );
    expect(ports[0]).not.toBe(ports[1]);
    const mint = async (service: Service) => {
      const env = envFor(service.dataDir, service.port);
      const { stdout } = await run(
        process.execPath,
        [
          '--import',
          'tsx',
          'app/cli/keys.ts',
          'create',
          '--account',
          'side-by-side',
          '--plan',
          'starter',
        ],
        { env },
      );
      return stdout.match(/sk_live_\w+/)![0];
    };
    const [keyOne, keyTwo] = [await mint(one), await mint(two)];
    expect(await status(one, '/v1/stores?limit=1', { authorization: `Bearer ${keyOne}` })).toBe(
      200,
    );
    expect(await status(two, '/v1/stores?limit=1', { authorization: `Bearer ${keyTwo}` })).toBe(
      200,
    );
    expect(await status(one, '/v1/stores?limit=1', { authorization: `Bearer ${keyTwo}` })).toBe(
      401,
    );
    expect(await status(two, '/v1/stores?limit=1', { authorization: `Bearer ${keyOne}` })).toBe(
      401,
    );
  });

  it('stops on a terminal Ctrl-C (SIGINT to the process group) without an error line, its PostgreSQL last', async () => {
    const service = await start(await dataDir());
    const postmaster = await postmasterPid(service.dataDir);
    process.kill(-service.child.pid!, 'SIGINT');
    await service.exited;
    expect(errorLines(service.output())).toEqual([]);
    expect(service.output()).not.toContain('57P01');
    expect(alive(postmaster)).toBe(false);
  });
});
