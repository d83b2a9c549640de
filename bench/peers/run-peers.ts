// The peer comparison: the service (response cache off), PostGraphile 5 and the hand-written floor
// on the same database, each row at 4 and 32 connections, three runs strictly alternating (service,
// PostGraphile, floor, service, ...), medians reported, with CPU per request of the server process
// and of its PostgreSQL backends measured over each run.
import pg from 'pg';
import { drive, type BenchRequest, type LoadResult } from '../load.ts';
import { startNode, type Running } from '../processes.ts';
import { cpuPerRequest, snapshotCpu } from './cpu.ts';
import type { PeerRow } from './rows.ts';

export const PEER_CONNECTIONS = [4, 32] as const;
export const PEER_RUNS = 3;
const PEERS = ['service', 'postgraphile', 'plain'] as const;
type Peer = (typeof PEERS)[number];

export interface PeerFigures {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU of the server process per request, ms */
  serverCpuMs: number;
  /** CPU of its PostgreSQL backends per request, ms */
  postgresCpuMs: number;
  non2xx: number;
  errors: number;
  runs: Array<Pick<PeerFigures, 'rps' | 'p50Ms' | 'p99Ms' | 'serverCpuMs' | 'postgresCpuMs'>>;
}

export interface PeerResult {
  route: string;
  /** the least share of the floor's req/s the row must reach, if any (PeerRow.floorTarget) */
  floorTarget?: number;
  connections: number;
  service: PeerFigures;
  postgraphile: PeerFigures;
  plain: PeerFigures;
}

interface Server {
  running: Running;
  applicationName: string;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function summarise(runs: PeerFigures['runs'], loads: LoadResult[]): PeerFigures {
  const of = (key: keyof PeerFigures['runs'][number]) => median(runs.map((r) => r[key]));
  return {
    rps: of('rps'),
    p50Ms: of('p50Ms'),
    p99Ms: of('p99Ms'),
    serverCpuMs: of('serverCpuMs'),
    postgresCpuMs: of('postgresCpuMs'),
    non2xx: loads.reduce((n, l) => n + l.non2xx, 0),
    errors: loads.reduce((n, l) => n + l.errors, 0),
    runs,
  };
}

export async function runPeers(options: {
  databaseUrl: string;
  serviceEnv: Record<string, string>;
  headers: Record<string, string>;
  rows: PeerRow[];
  durationS: number;
  warmupS: number;
  log: (line: string) => void;
}): Promise<PeerResult[]> {
  const { databaseUrl, headers, rows, durationS, warmupS, log } = options;
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const peerEnv = { PEER_DATABASE_URL: databaseUrl };
  const servers: Record<Peer, Server> = {
    service: {
      running: await startNode(
        'app/main.ts',
        { ...options.serviceEnv, RESPONSE_CACHE_TTL_MS: '0' },
        { readyPath: '/v1/health' },
      ),
      applicationName: 'store-intelligence',
    },
    postgraphile: {
      running: await startNode('bench/peers/postgraphile-server.ts', peerEnv, {
        readyPath: '/graphql',
      }),
      applicationName: 'bench-postgraphile',
    },
    plain: {
      running: await startNode('bench/peers/floor-server.ts', peerEnv),
      applicationName: 'bench-floor',
    },
  };
  const admin = new pg.Client({
    connectionString: databaseUrl,
    application_name: 'bench-monitor',
  });
  await admin.connect();
  const results: PeerResult[] = [];
  try {
    for (const row of rows) {
      for (const connections of PEER_CONNECTIONS) {
        log(
          `peers: ${row.route}, ${connections} connections: warm-up, then ${PEER_RUNS} alternating runs of ${durationS} s`,
        );
        const requestsOf = (peer: Peer): BenchRequest[] => row[peer];
        for (const peer of PEERS)
          await drive(servers[peer].running.baseUrl, requestsOf(peer), {
            connections,
            durationS: warmupS,
            headers,
          });
        const runs: Record<Peer, PeerFigures['runs']> = {
          service: [],
          postgraphile: [],
          plain: [],
        };
        const loads: Record<Peer, LoadResult[]> = {
          service: [],
          postgraphile: [],
          plain: [],
        };
        for (let run = 0; run < PEER_RUNS; run++) {
          for (const peer of PEERS) {
            const { running, applicationName } = servers[peer];
            const before = await snapshotCpu(admin, database, applicationName, running.pid);
            const load = await drive(running.baseUrl, requestsOf(peer), {
              connections,
              durationS,
              headers,
            });
            const after = await snapshotCpu(admin, database, applicationName, running.pid);
            const cpu = cpuPerRequest(before, after, load.requests);
            loads[peer].push(load);
            runs[peer].push({
              rps: load.rps,
              p50Ms: load.p50Ms,
              p99Ms: load.p99Ms,
              serverCpuMs: cpu.serverMs,
              postgresCpuMs: cpu.postgresMs,
            });
          }
        }
        const result = {
          route: row.route,
          floorTarget: row.floorTarget,
          connections,
          service: summarise(runs.service, loads.service),
          postgraphile: summarise(runs.postgraphile, loads.postgraphile),
          plain: summarise(runs.plain, loads.plain),
        };
        log(
          `  service ${result.service.rps.toFixed(0)} req/s, PostGraphile ${result.postgraphile.rps.toFixed(0)}, floor ${result.plain.rps.toFixed(0)}`,
        );
        results.push(result);
      }
    }
  } finally {
    await admin.end();
    await Promise.all(PEERS.map((peer) => servers[peer].running.stop()));
  }
  return results;
}
