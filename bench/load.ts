// One autocannon run over a rotating set of paths; every connection walks the list in turn.
// Percentiles come from autocannon's own per-response durations (process.hrtime, sub-millisecond)
// rather than its histogram, which rounds to whole milliseconds.
import autocannon from 'autocannon';

export interface LoadResult {
  connections: number;
  durationS: number;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** One request of a rotation: a GET path, or a POST with its JSON body (GraphQL). */
export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;

export async function drive(
  baseUrl: string,
  paths: readonly string[] | readonly BenchRequest[],
  {
    connections,
    durationS,
    headers,
  }: {
    connections: number;
    durationS: number;
    headers: Record<string, string>;
  },
): Promise<LoadResult> {
  const durations: number[] = [];
  const requests = paths.map((entry) =>
    typeof entry === 'string'
      ? { method: 'GET' as const, path: entry }
      : {
          ...entry,
          ...(entry.body !== undefined
            ? { headers: { ...headers, 'content-type': 'application/json' } }
            : {}),
        },
  );
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: baseUrl, connections, duration: durationS, headers, requests },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) durations.push(responseTime);
    });
  });
  durations.sort((a, b) => a - b);
  return {
    connections,
    durationS,
    requests: result.requests.total,
    rps: durations.length / durationS,
    p50Ms: percentile(durations, 50),
    p99Ms: percentile(durations, 99),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
