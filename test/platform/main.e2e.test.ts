// `npm start` on a fresh machine: no DATABASE_URL, REDIS_URL or MONGODB_URL. The service must
// start an embedded PostgreSQL under DATA_DIR, answer /v1/health, shut down cleanly on SIGTERM
// (exit 0, cluster stopped, no postmaster.pid), and on the next start reuse the same data
// (no new cluster, no migration, no second seeding).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.ts';

const TSX = 'node_modules/.bin/tsx';
const SEED_STORES = 50;

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startService(env: NodeJS.ProcessEnv): Running {
  const child = spawn(TSX, ['app/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, output: () => output, exited };
}

async function waitForHealthy(port: number, running: Running, deadlineMs = 90_000) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (running.child.exitCode !== null)
      throw new Error(`service exited early:\n${running.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/health`);
      if (res.status === 200)
        return (await res.json()) as {
          status: string;
          backends: Record<string, { backend: string }>;
        };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not healthy within ${deadlineMs} ms:\n${running.output()}`);
}

/**
 * Warnings, errors and dropped connections logged once shutdown began: the embedded cluster must
 * stop only after our connections have closed.
 */
function problemsDuringShutdown(output: string): string[] {
  const lines = output.split('\n');
  const from = lines.findIndex((line) => line.includes('"msg":"shutting down"'));
  expect(from).toBeGreaterThanOrEqual(0);
  return lines.slice(from).filter((line) => {
    try {
      const entry = JSON.parse(line) as { level: number; msg: string };
      return entry.level >= 40 || entry.msg.includes('server is shutting down');
    } catch {
      return line.trim() !== '';
    }
  });
}

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('npm start with no backend configured (embedded default)', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let port: number;
  let pgPort: number;
  const started: Running[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sig-main-e2e-'));
    port = await freePort();
    pgPort = await freePort();
    env = { ...process.env };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    delete env.MONGODB_URL;
    Object.assign(env, {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(pgPort),
      SEED_STORES: String(SEED_STORES),
      LOG_LEVEL: 'info',
    });
  });

  afterAll(async () => {
    for (const running of started) {
      if (running.child.exitCode === null) {
        running.child.kill('SIGTERM');
        await running.exited;
      }
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Stores in the embedded catalog, asked while the service (and so its PostgreSQL) runs. */
  async function catalogStores(): Promise<number> {
    const password = (await readFile(path.join(dataDir, 'postgres.password'), 'utf8')).trim();
    const client = new pg.Client({
      connectionString: `postgresql://postgres:${password}@127.0.0.1:${pgPort}/store_intelligence`,
    });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM stores');
      return rows[0]!.n;
    } finally {
      await client.end();
    }
  }

  async function runOnce() {
    const running = startService(env);
    started.push(running);
    const health = await waitForHealthy(port, running);
    const stores = await catalogStores();
    running.child.kill('SIGTERM');
    const code = await running.exited;
    return { health, stores, code, output: running.output() };
  }

  it('starts on an embedded PostgreSQL, and stops it cleanly on SIGTERM', async () => {
    const first = await runOnce();
    expect(first.health).toMatchObject({
      status: 'ok',
      backends: {
        structured: { backend: 'embedded-postgres' },
        legacy: { backend: 'postgres-jsonb' },
        redis: { backend: 'in-process' },
      },
    });
    expect(first.output).toMatch(/structured store: embedded PostgreSQL .*created now/);
    expect(first.output).toContain('applying migration');
    expect(first.output).toContain('catalog seeded');
    // the seed shows progress while it runs
    expect(first.output).toContain(
      `seeding: ${SEED_STORES} of ${SEED_STORES} stores loaded (100 %`,
    );
    expect(first.stores).toBe(SEED_STORES);
    expect(first.code).toBe(0);
    expect(first.output).toContain('shutdown complete');
    expect(problemsDuringShutdown(first.output)).toEqual([]);
    expect(await exists(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(await canConnect(pgPort)).toBe(false);
  });

  it('reuses the data on the next start: no new cluster, no migration, no second seeding', async () => {
    const second = await runOnce();
    expect(second.health.status).toBe('ok');
    expect(second.output).toMatch(/structured store: embedded PostgreSQL /);
    expect(second.output).not.toContain('created now');
    expect(second.output).not.toContain('applying migration');
    expect(second.output).not.toContain('seeding');
    // stdout is a pipe here, so every line is JSON for a collector; a start says nothing it need not
    const lines = second.output.split('\n').filter((line) => line.length > 0);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(second.output).not.toContain('crontab');
    expect(second.stores).toBe(SEED_STORES);
    expect(second.code).toBe(0);
    expect(problemsDuringShutdown(second.output)).toEqual([]);
    expect(await exists(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  });
});
