// Every route of the REST table (whatever routes it holds when this runs, Signals included) takes
// hostile paths, query strings and JSON bodies (support/arbitraries.ts) and answers each with a
// success or the contract's envelope {error: {code, message, details}}: a code from the contract's
// list with the status that code maps to, never a 5xx, and, for a route that writes, not one row
// added, changed away or removed by a refused request. Every answer also matches the OpenAPI
// description of the route that answered it. Fixed seed: a failure reproduces.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogRoutes } from '../../../rest/routes/index.ts';
import type { RestRoute } from '../../../rest/route.ts';
import { ERROR_CODES, HTTP_STATUS, type ErrorCode } from '../../../src/platform/errors.ts';
import { requestFor, type GeneratedRequest } from './support/arbitraries.ts';
import { startFuzzServer, type FuzzServer } from './support/fuzz-server.ts';

const SEED = 20_260_801;
/** per route; the whole table stays well under a minute on a shared 2-core machine */
const RUNS_PER_ROUTE = 60;

let fuzz: FuzzServer;
const tried = new Map<string, number>();

beforeAll(async () => {
  fuzz = await startFuzzServer();
});
afterAll(async () => {
  const total = [...tried.values()].reduce((sum, n) => sum + n, 0);
  console.log(
    `bad-input REST: ${total} generated requests over ${tried.size} routes (seed ${SEED}, ${RUNS_PER_ROUTE} per route)`,
  );
  await fuzz?.close();
});

/** The documented template a (normalised) request path falls under; static segments win over parameters. */
function answeringRoute(method: string, pathname: string): RestRoute | undefined {
  const segments = pathname.split('/');
  const candidates = catalogRoutes.filter((route) => {
    if (route.method !== method) return false;
    const parts = route.path.split('/');
    return (
      parts.length === segments.length &&
      parts.every((part, i) => part.startsWith('{') || part === segments[i])
    );
  });
  const staticCount = (route: RestRoute) =>
    route.path.split('/').filter((part) => !part.startsWith('{')).length;
  return candidates.sort((a, b) => staticCount(b) - staticCount(a))[0];
}

const isWrite = (route: RestRoute) => route.method !== 'GET';

async function send(request: GeneratedRequest) {
  return fuzz.server.app.inject({
    method: request.method,
    url: request.url,
    headers: {
      ...fuzz.headers,
      ...(request.payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    payload: request.payload,
  });
}

async function checkAnswer(route: RestRoute, request: GeneratedRequest): Promise<void> {
  const before = isWrite(route) ? await fuzz.rowCounts() : undefined;
  const response = await send(request);
  const label = `${request.method} ${request.url} ${request.payload?.slice(0, 200) ?? ''} -> ${response.statusCode} ${response.body.slice(0, 300)}`;

  expect(response.statusCode, label).toBeLessThan(500);
  expect(response.headers['content-type'], label).toBe('application/json; charset=utf-8');
  const body = JSON.parse(response.body);

  if (response.statusCode >= 400) {
    expect(Object.keys(body), label).toEqual(['error']);
    expect(Object.keys(body.error).sort(), label).toEqual(['code', 'details', 'message']);
    const code = body.error.code as ErrorCode;
    expect(ERROR_CODES, label).toContain(code);
    expect(response.statusCode, label).toBe(HTTP_STATUS[code]);
    expect(typeof body.error.message, label).toBe('string');
    expect(
      body.error.details === null ||
        (typeof body.error.details === 'object' && !Array.isArray(body.error.details)),
      label,
    ).toBe(true);
    if (code === 'rate_limited')
      expect(Number(response.headers['retry-after']), label).toBeGreaterThan(0);
    if (before)
      expect(await fuzz.rowCounts(), `${label}: a refused request wrote nothing`).toEqual(before);
  } else {
    expect(response.statusCode, label).toBeGreaterThanOrEqual(200);
  }

  // the answer matches the description of the route that gave it (a path like /v1/stores/../apps
  // is normalised by the client into another route's); a path no route matches has no schema
  const answering = answeringRoute(
    request.method,
    new URL(request.url, 'http://localhost').pathname,
  );
  const unrouted =
    response.statusCode === 404 &&
    body.error?.details?.path !== undefined &&
    body.error?.details?.method !== undefined;
  if (answering && !unrouted) {
    expect(fuzz.validate(request.method, answering.path, response.statusCode, body), label).toEqual(
      [],
    );
  }
}

describe('every REST route under hostile input', () => {
  it('covers a table with routes in it', () => {
    expect(catalogRoutes.length).toBeGreaterThan(0);
  });

  it.each(catalogRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: never a 5xx, always a success or the contract envelope, nothing half-written',
    async (name, route) => {
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(requestFor(route), async (request) => {
          runs++;
          await checkAnswer(route, request);
        }),
        { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
      tried.set(name, runs);
    },
  );
});
