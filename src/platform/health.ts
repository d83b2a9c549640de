// Liveness of the service and its backends, for GET /v1/health. The structured store is essential
// (no request works without it); the legacy store and Redis only degrade the service. Every check
// has a deadline so a hung backend cannot hang the health route. Driver error texts can name hosts,
// so they go to the log, never into the unauthenticated response.
import packageJson from '../../package.json' with { type: 'json' };
import type { Services } from './services.ts';
import type { ReplicaStatus } from './database/read-replicas.ts';

export interface BackendHealth {
  ok: boolean;
  backend: string;
  latencyMs?: number;
  /** why it is not ok, in our own words (driver texts, which can name hosts, stay in the log) */
  reason?: string;
}

export interface HealthReport {
  status: 'ok' | 'degraded';
  backends: {
    structured: BackendHealth;
    legacy: BackendHealth;
    redis: BackendHealth;
    /** only when DATABASE_READ_URL names replicas: ok while every one serves catalog reads */
    readReplicas?: BackendHealth;
  };
  /** true while no API key exists and the server accepts keyless requests (never in production) */
  openDevMode: boolean;
  version: string;
  uptimeSeconds: number;
}

export const HEALTH_CHECK_DEADLINE_MS = 2_000;

interface CheckResult extends BackendHealth {
  error?: string;
}

async function withDeadline(
  backend: string,
  check: () => Promise<CheckResult>,
): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({ ok: false, backend, error: `no answer within ${HEALTH_CHECK_DEADLINE_MS} ms` }),
      HEALTH_CHECK_DEADLINE_MS,
    );
  });
  try {
    return await Promise.race([
      check().catch((error: unknown) => ({ ok: false, backend, error: (error as Error).message })),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** `isOpenDevMode` tells whether the service accepts data requests without a key (the access layer knows). */
export async function checkHealth(
  services: Pick<Services, 'config' | 'db' | 'legacy' | 'pubsub' | 'logger'>,
  isOpenDevMode: () => Promise<boolean>,
): Promise<HealthReport> {
  const { db, legacy, pubsub } = services;
  const [structured, legacyHealth, redis, openDevMode] = await Promise.all([
    withDeadline(db.backend, async () => {
      const started = performance.now();
      try {
        await db.pool.query('SELECT 1');
      } catch (error) {
        return {
          ok: false,
          backend: db.backend,
          error: (error as Error).message,
          reason: db.downReason?.() ?? 'not reachable',
        };
      }
      return { ok: true, backend: db.backend, latencyMs: Math.round(performance.now() - started) };
    }),
    withDeadline(legacy.source.split(':')[0] ?? 'legacy', () => legacy.health()),
    withDeadline(pubsub.backend, () => pubsub.health()),
    isOpenDevMode().catch(() => false),
  ]);

  const readReplicas = db.replicas && replicaHealth(db.replicas.status(), db.replicas.maxLagMs);
  const checks = {
    structured,
    legacy: legacyHealth,
    redis,
    ...(readReplicas ? { readReplicas } : {}),
  };
  for (const [role, check] of Object.entries(checks)) {
    if (!check.ok)
      services.logger.warn(
        { role, backend: check.backend, error: check.error },
        'health check failed',
      );
  }
  return {
    status: Object.values(checks).every((check) => check.ok) ? 'ok' : 'degraded',
    backends: {
      structured: publicView(structured),
      legacy: publicView(legacyHealth),
      redis: publicView(redis),
      ...(readReplicas ? { readReplicas: publicView(readReplicas) } : {}),
    },
    openDevMode,
    version: packageJson.version,
    uptimeSeconds: Math.round(process.uptime()),
  };
}

/** The replicas as of their last check (they are checked continuously, so this costs no query). */
function replicaHealth(replicas: ReplicaStatus[], maxLagMs: number): CheckResult {
  const serving = replicas.filter((r) => r.serving);
  return {
    ok: serving.length === replicas.length,
    backend: 'postgres-replicas',
    reason: `${serving.length} of ${replicas.length} read replicas within ${maxLagMs} ms of the primary; catalog reads of the others go to the primary`,
    error: replicas
      .filter((r) => !r.serving)
      .map((r) => `${r.server}: ${r.reason}`)
      .join('; '),
  };
}

function publicView({ ok, backend, latencyMs, reason }: CheckResult): BackendHealth {
  return {
    ok,
    backend,
    ...(latencyMs === undefined ? {} : { latencyMs }),
    ...(ok ? {} : { reason: reason ?? 'not reachable' }),
  };
}
