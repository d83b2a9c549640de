// The processes of the multi-process soak: gateways (tsx app/main.ts) and workers (tsx
// app/worker.ts) started as an operator starts them, each on its own port (workers serve no HTTP),
// that the soak can kill with SIGKILL and start again with the same environment and port.
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  name: string;
  /** http://127.0.0.1:PORT for a gateway; undefined for a worker */
  baseUrl?: string;
  readonly pid: number | undefined;
  /** lines the process logged at error level or above, over all its lives */
  errorLines: string[];
  /** starts the process (again) and, for a gateway, waits until /v1/health answers 200 */
  start(): Promise<void>;
  /** SIGKILL: no drain, no cleanup, as a crash or an OOM kill */
  kill(): Promise<void>;
  /** SIGTERM and wait: the service drains and exits */
  stop(): Promise<void>;
  running(): boolean;
  /** exits nobody asked for (neither kill nor stop) */
  unexpectedExits: number;
}

export function serviceProcess(options: {
  name: string;
  script: 'app/main.ts' | 'app/worker.ts';
  env: Record<string, string>;
  port?: number;
  /** how long a start may take (the first gateway seeds the catalog) */
  startTimeoutMs?: number;
}): ServiceProcess {
  let child: ChildProcess | undefined;
  let expectedExit = false;
  const baseUrl = options.port ? `http://127.0.0.1:${options.port}` : undefined;
  const process_: ServiceProcess = {
    name: options.name,
    baseUrl,
    get pid() {
      return child?.pid;
    },
    errorLines: [],
    unexpectedExits: 0,
    running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    async start() {
      expectedExit = false;
      const started = spawn(
        process.execPath,
        ['--max-old-space-size=256', '--import', 'tsx', options.script],
        {
          cwd: repoRoot,
          env: {
            ...process.env,
            ...options.env,
            ...(options.port ? { HOST: '127.0.0.1', PORT: String(options.port) } : {}),
            LOG_FORMAT: 'json',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      child = started;
      const lastLines: string[] = [];
      const keep = (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
          if (/"level":(50|60)/.test(line)) process_.errorLines.push(`${options.name}: ${line}`);
          lastLines.push(line);
          if (lastLines.length > 20) lastLines.shift();
        }
      };
      started.stdout!.on('data', keep);
      started.stderr!.on('data', keep);
      started.once('exit', () => {
        if (!expectedExit) process_.unexpectedExits++;
      });
      if (!baseUrl) return;
      const deadline = Date.now() + (options.startTimeoutMs ?? 120_000);
      while (
        (await fetch(`${baseUrl}/v1/health`).then(
          (r) => r.status,
          () => 0,
        )) !== 200
      ) {
        if (started.exitCode !== null)
          throw new Error(
            `${options.name} exited with ${started.exitCode} while starting:\n${lastLines.join('\n')}`,
          );
        if (Date.now() > deadline)
          throw new Error(
            `${options.name} was not healthy within ${options.startTimeoutMs ?? 120_000} ms`,
          );
        await sleep(250);
      }
    },
    async kill() {
      if (!process_.running()) return;
      expectedExit = true;
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child!.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!process_.running()) return;
      expectedExit = true;
      const running = child!;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await Promise.race([exited, sleep(20_000).then(() => running.kill('SIGKILL'))]);
    },
  };
  return process_;
}
