// The soak's summary: bench/soak/results.json (everything, RSS samples included) and
// bench/soak/results.md (the table docs/reliability.md quotes), also printed at the end of a run.
import { writeFileSync } from 'node:fs';
import type { MemoryVerdict, RssSample } from './memory.ts';

export interface SoakSummary {
  startedAt: string;
  command: string;
  settings: {
    clients: number;
    durationS: number;
    warmupS: number;
    database: string;
    stores: number;
    redis: boolean;
    maxOldSpaceMb: number;
  };
  machine: { cpus: number; loadAverage: number[] };
  requests: number;
  requestsPerSecond: number;
  statusCounts: Record<string, number>;
  /** non-2xx answers + connection errors + timeouts */
  errors: number;
  connectionErrors: number;
  timeouts: number;
  latencyMs: { p50: number; p99: number; max: number };
  scrapes: Array<{ domain: string; status: string }>;
  memory: MemoryVerdict;
  gatewayErrorLogLines: number;
  failures: string[];
  rssSamples: RssSample[];
}

export function renderMarkdown(s: SoakSummary): string {
  const statuses = Object.entries(s.statusCounts)
    .map(([code, n]) => `${code}: ${n}`)
    .join(', ');
  return [
    `# Soak run ${s.startedAt}`,
    '',
    `Command: \`${s.command}\` — ${s.settings.clients} concurrent clients for ${s.settings.durationS} s (first ${s.settings.warmupS} s warm-up), ` +
      `${s.settings.database}, ${s.settings.redis ? 'Redis' : 'in-process counters'}, gateway heap ${s.settings.maxOldSpaceMb ? `capped at ${s.settings.maxOldSpaceMb} MB` : 'uncapped'}; ${s.machine.cpus} CPUs, load average ${s.machine.loadAverage.map((l) => l.toFixed(2)).join(' ')} before the run.`,
    '',
    '| figure | value |',
    '| --- | --- |',
    `| requests served | ${s.requests} (${s.requestsPerSecond.toFixed(0)}/s) |`,
    `| status codes | ${statuses} |`,
    `| errors (non-2xx, connection errors, timeouts) | ${s.errors} |`,
    `| latency p50 / p99 / max | ${s.latencyMs.p50.toFixed(1)} / ${s.latencyMs.p99.toFixed(1)} / ${s.latencyMs.max.toFixed(1)} ms |`,
    `| scrapes run during the load | ${s.scrapes.map((x) => `${x.domain} ${x.status}`).join(', ') || 'none'} |`,
    `| gateway RSS start / after warm-up / end / max | ${s.memory.startMb} / ${s.memory.afterWarmupMb} / ${s.memory.endMb} / ${s.memory.maxMb} MB |`,
    `| RSS growth after warm-up | ${s.memory.growthPct} % (limit: under 10 %) |`,
    `| error lines in the gateway's log | ${s.gatewayErrorLogLines} |`,
    `| verdict | ${s.failures.length === 0 ? 'pass' : `FAIL: ${s.failures.join('; ')}`} |`,
    '',
  ].join('\n');
}

export function writeSummary(summary: SoakSummary, directory: URL): string {
  const markdown = renderMarkdown(summary);
  writeFileSync(new URL('results.json', directory), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(new URL('results.md', directory), markdown);
  return markdown;
}
