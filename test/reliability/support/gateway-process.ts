// The gateway as an operator runs it (`tsx app/main.ts`) in a child process, for fault and replica
// tests: a process of its own proves that an outage neither crashes it nor needs a restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../support/free-port.ts';

const MAIN = fileURLToPath(new URL('../../../app/main.ts', import.meta.url));

export interface GatewayProcess {
  baseUrl: string;
  child: ChildProcess;
  /** everything the process wrote so far (stdout and stderr) */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the gateway with `env` on a free loopback port (no seeding, no screenshots, warnings
 * logged) and waits until /v1/health answers at all (200 or 503).
 */
export async function startGatewayProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<GatewayProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      SEED_STORES: '0',
      LOG_LEVEL: 'warn',
      CHROMIUM_PATH: '',
      REDIS_URL: '',
      MONGODB_URL: '',
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  const gateway: GatewayProcess = {
    baseUrl,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the gateway exited with ${child.exitCode}:\n${output}`);
    const answered = await fetch(`${baseUrl}/v1/health`).then(
      () => true,
      () => false,
    );
    if (answered) return gateway;
    if (Date.now() > deadline) {
      await gateway.stop();
      throw new Error(`the gateway did not answer within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Whether the process is still the one that was started (no crash, no restart). */
export const isRunning = (gateway: GatewayProcess) =>
  gateway.child.exitCode === null && gateway.child.signalCode === null;
