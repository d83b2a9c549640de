// What each route costs the database: a probe server with record-sql.ts preloaded answers a few
// requests one at a time; the statements logged during each request are counted, and the ones that
// read data are re-run under EXPLAIN (ANALYZE) with their own bind values (median of EXPLAIN_RUNS).
import { readFileSync, statSync } from 'node:fs';
import pg from 'pg';
import type { BenchRequest } from './load.ts';
import { SESSION_OPTIONS } from '../src/platform/database/database.ts';

export interface Statement {
  text: string;
  values: unknown[];
}

export interface ProbeResult {
  /** statements per request: median over the probed requests */
  statements: number;
  /** statements of the first probed request, for the report and its plans */
  sample: Statement[];
  /** probed requests that did not answer 2xx, with their status and body */
  failures: string[];
  /** sum over the sampled request's statements of the median EXPLAIN ANALYZE execution time, ms */
  dbExecutionMs: number;
  dbPlanningMs: number;
}

const EXPLAIN_RUNS = 5;
const PROBED_REQUESTS = 5;
const SLOW_MS = 2_000;
/** the job queue's polling and the scrape sweep run on their own schedule; they are not the route's */
const notTheRoute = (text: string) =>
  /graphile_worker/i.test(text) || /^\s*DELETE FROM scrape_requests\b/i.test(text);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length
    ? (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2
    : 0;
};

function newLines(logPath: string, from: number): { statements: Statement[]; size: number } {
  const size = statSync(logPath).size;
  const chunk = readFileSync(logPath).subarray(from, size).toString('utf8');
  const statements = chunk
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Statement)
    .filter((s) => !notTheRoute(s.text));
  return { statements, size };
}

export async function probeFamily(
  baseUrl: string,
  headers: Record<string, string>,
  paths: readonly string[] | readonly BenchRequest[],
  logPath: string,
  databaseUrl: string,
): Promise<ProbeResult> {
  const perRequest: Statement[][] = [];
  const failures: string[] = [];
  // a GET path, or a POST with its JSON body
  const send = (entry: string | BenchRequest) =>
    typeof entry === 'string'
      ? fetch(baseUrl + entry, { headers })
      : fetch(baseUrl + entry.path, {
          method: entry.method,
          headers: { ...headers, 'content-type': 'application/json' },
          body: entry.body,
        });
  // one request first, unrecorded: first-use work (the key's once-a-minute lastUsedAt write,
  // prepared documents) is not what a request costs in steady state
  await send(paths[paths.length - 1]!).then((r) => r.arrayBuffer());
  for (const entry of paths.slice(0, PROBED_REQUESTS)) {
    const path = typeof entry === 'string' ? entry : entry.path;
    const before = statSync(logPath).size;
    const response = await send(entry);
    const body = await response.text();
    if (!response.ok) failures.push(`${path}: ${response.status} ${body.slice(0, 200)}`);
    perRequest.push(newLines(logPath, before).statements);
  }
  const sample = perRequest[0] ?? [];
  // the service's session settings: the plan is the one the service runs
  const client = new pg.Client({ connectionString: databaseUrl, options: SESSION_OPTIONS });
  await client.connect();
  let dbExecutionMs = 0;
  let dbPlanningMs = 0;
  try {
    for (const statement of sample) {
      if (!/^\s*(SELECT|WITH)\b/i.test(statement.text)) continue;
      const execution: number[] = [];
      const planning: number[] = [];
      // a statement slower than SLOW_MS is timed once: five runs of a multi-second scan add nothing
      for (let i = 0; i < EXPLAIN_RUNS && !(execution[0]! > SLOW_MS); i++) {
        const { rows } = await client.query(
          `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`,
          statement.values,
        );
        const [plan] = (
          rows[0] as { 'QUERY PLAN': Array<{ 'Execution Time': number; 'Planning Time': number }> }
        )['QUERY PLAN'];
        execution.push(plan!['Execution Time']);
        planning.push(plan!['Planning Time']);
      }
      dbExecutionMs += median(execution);
      dbPlanningMs += median(planning);
    }
  } finally {
    await client.end();
  }
  return {
    statements: median(perRequest.map((r) => r.length)),
    sample,
    failures,
    dbExecutionMs,
    dbPlanningMs,
  };
}

/** EXPLAIN (ANALYZE, BUFFERS) text of every data-reading statement of a sample, for bench/plans/. */
export async function explainText(databaseUrl: string, sample: Statement[]): Promise<string> {
  // the service's session settings: the plan is the one the service runs
  const client = new pg.Client({ connectionString: databaseUrl, options: SESSION_OPTIONS });
  await client.connect();
  try {
    const parts: string[] = [];
    for (const statement of sample) {
      if (!/^\s*(SELECT|WITH)\b/i.test(statement.text)) continue;
      const { rows } = await client.query(
        `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`,
        statement.values,
      );
      parts.push(
        `-- ${statement.text}\n-- values: ${JSON.stringify(statement.values)}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`,
      );
    }
    return parts.join('\n\n');
  } finally {
    await client.end();
  }
}
