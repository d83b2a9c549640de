// The plain baseline (bench only, never shipped): a bare Fastify handler on one pg.Pool replaying
// the very statements the service issued for a probed request (bench/probe.ts recorded them), with
// the probed request's key values swapped for this request's. No GraphQL, no REST adapter, no access
// layer: what the same SQL costs served as plainly as possible.
// BENCH_BASELINE_JSON = { databaseUrl, routes: [{ path, param, statements, probeValues }] } where
// probeValues maps a parameter value (say the probed domain) to the fields of the lookup table row
// that replaces it, and lookup holds one row per accepted parameter value.
import Fastify from 'fastify';
import pg from 'pg';

interface Statement {
  text: string;
  values: unknown[];
}
interface BaselineRoute {
  /** Fastify path, e.g. /plain/stores/:domain or /plain/stores */
  path: string;
  /** where this request's value comes from: a path or a query parameter */
  param: { in: 'path' | 'query'; name: string };
  statements: Statement[];
  /** the probed request's values, by field: { domain: 'a.com', id: 17 } */
  probe: Record<string, unknown>;
  /** this request's values by the parameter's value; absent = { [param.name]: value } */
  lookup?: Record<string, Record<string, unknown>>;
}

const config = JSON.parse(process.env.BENCH_BASELINE_JSON ?? '{}') as { databaseUrl: string; routes: BaselineRoute[] };
const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 20 });
const app = Fastify({ logger: false });

function substitute(value: unknown, swaps: Map<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => substitute(v, swaps));
  const key = JSON.stringify(value);
  return swaps.has(key) ? swaps.get(key) : value;
}

for (const route of config.routes) {
  app.get(route.path, async (request, reply) => {
    const source = (route.param.in === 'path' ? request.params : request.query) as Record<string, string>;
    const given = source[route.param.name];
    const current = given === undefined ? undefined : (route.lookup ? route.lookup[given] : { [route.param.name]: given });
    if (!current) return reply.code(404).send({ error: 'not_found' });
    const swaps = new Map(Object.entries(route.probe).map(([field, probed]) => [JSON.stringify(probed), current[field]]));
    const [first, ...rest] = route.statements;
    const head = first ? await pool.query(first.text, substitute(first.values, swaps) as unknown[]) : null;
    const tail = await Promise.all(rest.map((s) => pool.query(s.text, substitute(s.values, swaps) as unknown[])));
    return { data: [head, ...tail].map((r) => r?.rows ?? []) };
  });
}

await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 0) });
