// The first start's seed shows progress: a line per phase and per tenth of the stores loaded.
import { describe, expect, it } from 'vitest';
import { logSeedProgress } from '../../src/seed/seed-progress.ts';

describe('seed progress on the first start', () => {
  it('says each tenth of the stores loaded once, then each later phase once', () => {
    const lines: string[] = [];
    const report = logSeedProgress({
      info: ((_fields: unknown, message: string) => lines.push(message)) as never,
    });
    report({ phase: 'loading', storesDone: 0, storesTotal: 10_000 });
    for (let done = 500; done <= 10_000; done += 500)
      report({ phase: 'loading', storesDone: done, storesTotal: 10_000 });
    report({ phase: 'indexing', storesDone: 10_000, storesTotal: 10_000 });
    report({ phase: 'indexing', storesDone: 10_000, storesTotal: 10_000 });
    report({ phase: 'analyzing', storesDone: 10_000, storesTotal: 10_000 });
    const loading = lines.filter((line) => line.includes('stores loaded'));
    expect(loading.map((line) => /\((\d+) %/.exec(line)![1])).toEqual([
      '0',
      '10',
      '20',
      '30',
      '40',
      '50',
      '60',
      '70',
      '80',
      '90',
      '100',
    ]);
    expect(loading[3]).toMatch(/^seeding: 3,000 of 10,000 stores loaded \(30 %, \d+ s\)$/);
    expect(lines.filter((line) => line.includes('indexes'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('analyzing'))).toHaveLength(1);
  });
});
