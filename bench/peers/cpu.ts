// CPU time spent per request, read from /proc (Linux): the server process itself, and the PostgreSQL
// backends serving it (the connections of its application_name on the bench database). pg_stat_statements
// would need a server restart to preload here; a backend's own CPU counters need nothing and also
// count parsing, planning and protocol work that the statement statistics leave out.
import { readFileSync } from 'node:fs';
import type pg from 'pg';

/** Linux's USER_HZ: /proc reports CPU time in these ticks */
const TICKS_PER_SECOND = 100;

/** utime + stime of a process in ticks; 0 when it is gone */
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

export interface CpuSnapshot {
  server: number;
  backends: Map<number, number>;
}

async function backendPids(
  admin: pg.Client,
  database: string,
  applicationName: string,
): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2`,
    [database, applicationName],
  );
  return rows.map((r) => r.pid);
}

export async function snapshotCpu(
  admin: pg.Client,
  database: string,
  applicationName: string,
  serverPid: number,
): Promise<CpuSnapshot> {
  const pids = await backendPids(admin, database, applicationName);
  return {
    server: cpuTicks(serverPid),
    backends: new Map(pids.map((pid) => [pid, cpuTicks(pid)])),
  };
}

/** ms of CPU per request between two snapshots: backends that joined meanwhile count from zero */
export function cpuPerRequest(
  before: CpuSnapshot,
  after: CpuSnapshot,
  requests: number,
): { serverMs: number; postgresMs: number } {
  let backendTicks = 0;
  for (const [pid, ticks] of after.backends)
    backendTicks += ticks - (before.backends.get(pid) ?? 0);
  const perRequest = (ticks: number) =>
    requests > 0 ? (ticks * 1000) / TICKS_PER_SECOND / requests : NaN;
  return {
    serverMs: perRequest(after.server - before.server),
    postgresMs: perRequest(backendTicks),
  };
}
