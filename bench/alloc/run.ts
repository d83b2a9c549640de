// `npm run bench:alloc`: the bytes the service allocates to answer each peer row's request
// (bench/peers/rows.ts), by package or file, from V8's sampling heap profiler with collected objects
// kept (heap-sampling.ts). Unlike req/s and CPU time, bytes allocated hold steady on a machine that
// is slow or shared, so a change to the request path can be compared on any day; the peer bench
// still says what it is worth in req/s. Writes bench/alloc/results.json and results.md.
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/bench_catalog_1m, a catalog seeded
// by `npm run bench` or `npm run seed`), BENCH_PEER_ROWS (all), BENCH_WARMUP_S (5),
// BENCH_DURATION_S (10), BENCH_PORTS.
import { writeFileSync } from 'node:fs';
import { sampleCatalog } from '../catalog.ts';
import { drive } from '../load.ts';
import { buildPeerRows } from '../peers/rows.ts';
import { createBenchKey, freePort, revokeKey, startNode } from '../processes.ts';
import { benchServiceEnv } from '../service-env.ts';
import { codeUnderTest } from '../code-under-test.ts';
import { filterParts, isSelected } from '../selection.ts';
import { allocationByOwner, sampleAllocations } from './heap-sampling.ts';

const databaseUrl =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_catalog_1m';
const warmupS = Number(process.env.BENCH_WARMUP_S ?? 5);
const durationS = Number(process.env.BENCH_DURATION_S ?? 10);
const rowFilter = filterParts(process.env.BENCH_PEER_ROWS);
const CONNECTIONS = 4;
/** owners listed for each row; the rest are summed */
const SHOWN = 8;
const log = (line: string) => process.stderr.write(`[bench:alloc] ${line}\n`);

const started = new Date().toISOString();
const code = codeUnderTest();
const rows = buildPeerRows(await sampleCatalog(databaseUrl)).filter((row) =>
  isSelected(rowFilter, row.route),
);
const key = createBenchKey(databaseUrl);
const headers = { authorization: `Bearer ${key}` };
const inspectorPort = await freePort();
// as the peer rows run it: every request answered, none from the response cache
const service = await startNode(
  'app/main.ts',
  { ...benchServiceEnv(databaseUrl), RESPONSE_CACHE_TTL_MS: '0' },
  {
    readyPath: '/v1/health',
    nodeArgs: [`--inspect=127.0.0.1:${inspectorPort}`],
  },
);
const results = [];
try {
  for (const row of rows) {
    log(`${row.route}: ${warmupS} s of warm-up, then ${durationS} s sampled`);
    const load = { connections: CONNECTIONS, headers };
    await drive(service.baseUrl, row.service, { ...load, durationS: warmupS });
    const { result, head } = await sampleAllocations(inspectorPort, () =>
      drive(service.baseUrl, row.service, { ...load, durationS }),
    );
    if (result.non2xx + result.errors > 0)
      throw new Error(`${row.route}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    const { totalBytes, owners } = allocationByOwner(head, result.requests, process.cwd());
    log(`  ${(totalBytes / 1024).toFixed(1)} KB a request over ${result.requests} requests`);
    results.push({
      route: row.route,
      requests: result.requests,
      bytesPerRequest: totalBytes,
      owners,
    });
  }
} finally {
  await service.stop();
  revokeKey(databaseUrl, key, 12);
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const header = {
  run: started,
  ...code,
  node: process.version,
  connections: CONNECTIONS,
  warmupS,
  durationS,
};
writeFileSync(
  'bench/alloc/results.json',
  `${JSON.stringify({ ...header, rows: results }, null, 2)}\n`,
);
writeFileSync(
  'bench/alloc/results.md',
  [
    '# Bytes the service allocates a request',
    '',
    `- run: ${header.run}, commit ${header.commit} (working tree: ${header.workingTree}), Node ${header.node}`,
    `- command: \`npm run bench:alloc\` on ${new URL(databaseUrl).pathname.slice(1)}: each peer row's service requests (bench/peers/rows.ts), response cache off, at ${CONNECTIONS} connections, ${warmupS} s of warm-up, then ${durationS} s under V8's sampling heap profiler (one sample per 1 KB, objects the GC collected kept), divided by the requests answered`,
    '',
    '| route | requests sampled | KB a request | largest owners, KB a request |',
    '| --- | ---: | ---: | --- |',
    ...results.map((r) => {
      const shown = r.owners.slice(0, SHOWN);
      const rest = r.owners.slice(SHOWN).reduce((sum, o) => sum + o.bytes, 0);
      const list = [...shown.map((o) => `${o.owner} ${kb(o.bytes)}`), `the rest ${kb(rest)}`];
      return `| ${r.route} | ${r.requests.toLocaleString('en-US')} | ${kb(r.bytesPerRequest)} | ${list.join(' · ')} |`;
    }),
    '',
  ].join('\n'),
);
log('wrote bench/alloc/results.json and bench/alloc/results.md');
