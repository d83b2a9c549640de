// Preloaded into the server only during the probe (never during the timed runs): appends every
// statement any pg client sends (the raw pool, Prisma's pool through @prisma/adapter-pg and the job
// queue) to BENCH_SQL_LOG as one JSON line, so the bench can count statements per request and
// EXPLAIN ANALYZE exactly the SQL a route issued, with its bind values.
import { appendFileSync } from 'node:fs';
import pg from 'pg';

const logPath = process.env.BENCH_SQL_LOG;
const asJson = (_key: string, value: unknown) =>
  typeof value === 'bigint' ? value.toString() : value;
if (logPath) {
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function recordingQuery(this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    const text = typeof first === 'string' ? first : (first as { text?: string } | null)?.text;
    const values = Array.isArray(second)
      ? second
      : (first as { values?: unknown[] } | null)?.values;
    if (text)
      appendFileSync(logPath, `${JSON.stringify({ text, values: values ?? [] }, asJson)}\n`);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
}
