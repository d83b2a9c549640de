// The gateway's resident set size, sampled once a second from outside the process: /proc on Linux,
// `ps` elsewhere. RSS is what the operating system charges the process for, heap and native alike.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

export interface RssSample {
  /** seconds since sampling started */
  atS: number;
  rssMb: number;
}

function readRssKb(pid: number): number {
  const status = `/proc/${pid}/status`;
  if (existsSync(status)) {
    const line = readFileSync(status, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    if (line) return Number(line.replace(/\D+/g, ''));
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());
}

export function sampleRss(pid: number, intervalMs = 1_000): { samples: RssSample[]; stop(): void } {
  const samples: RssSample[] = [];
  const started = Date.now();
  const take = () => {
    try {
      samples.push({
        atS: Math.round((Date.now() - started) / 100) / 10,
        rssMb: Math.round(readRssKb(pid) / 102.4) / 10,
      });
    } catch {
      // the process is gone: the run reports it through its exit
    }
  };
  take();
  const timer = setInterval(take, intervalMs);
  return { samples, stop: () => clearInterval(timer) };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : NaN;
};

export interface MemoryVerdict {
  /** median RSS of the 5 s after warm-up, MB */
  afterWarmupMb: number;
  /** median RSS of the last 5 s, MB */
  endMb: number;
  maxMb: number;
  startMb: number;
  growthPct: number;
}

/** Growth from just after warm-up to the end, each a 5-sample median so one GC pause cannot decide it. */
export function judgeMemory(samples: RssSample[], warmupS: number): MemoryVerdict {
  const afterWarmup = samples
    .filter((s) => s.atS >= warmupS && s.atS < warmupS + 5)
    .map((s) => s.rssMb);
  const end = samples.slice(-5).map((s) => s.rssMb);
  const afterWarmupMb = median(afterWarmup);
  const endMb = median(end);
  return {
    startMb: samples[0]?.rssMb ?? NaN,
    afterWarmupMb,
    endMb,
    maxMb: Math.max(...samples.map((s) => s.rssMb)),
    growthPct: Math.round(((endMb - afterWarmupMb) / afterWarmupMb) * 1000) / 10,
  };
}
