// The suite order of a run without the previous run's durations (a clean clone): the longest
// suites named in test/support/slow-first-sequencer.ts first, in their order, then Vitest's own
// (largest file first); a suite with a recorded duration is ordered by Vitest alone.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import SlowFirstSequencer, { LONGEST_SUITES } from './support/slow-first-sequencer.ts';

const project = { name: '', config: { sequence: { groupOrder: 0 }, isolate: true } };
const spec = (path: string) =>
  ({ moduleId: new URL(`../${path}`, import.meta.url).pathname, project }) as TestSpecification;
const sequencer = (recorded: string[] = []) =>
  new SlowFirstSequencer({
    cache: {
      getTestSpecificationResult: (file: TestSpecification) =>
        recorded.some((path) => file.moduleId.endsWith(path))
          ? { duration: 1, failed: false }
          : undefined,
    },
  } as unknown as Vitest);
const order = (files: TestSpecification[]) =>
  files.map((file) => file.moduleId.replace(/.*?\/test\//, 'test/'));

describe('the suite order', () => {
  // the small one is 2 KB, the seed suite 20 KB: Vitest alone runs the seed suite first
  const small = 'test/graphql/enum-values.test.ts';
  const large = 'test/seed/seed-catalog.test.ts';
  const named = [
    'test/reliability/faults/gateway-killed-mid-request.test.ts',
    'test/stores/relevance/relevance.test.ts',
  ];

  it('starts the named suites first, in the list order, then the largest files', async () => {
    const files = [small, named[0]!, large, named[1]!].map(spec);
    expect(order(await sequencer().sort(files))).toEqual([named[1], named[0], large, small]);
  });

  it('leaves a suite with a recorded duration to Vitest (by size against those without one)', async () => {
    const files = [small, named[1]!, large].map(spec);
    expect(order(await sequencer([named[1]!]).sort(files))).toEqual([large, named[1], small]);
  });

  it('names suites that exist (a renamed suite is renamed in the list too)', () => {
    const missing = LONGEST_SUITES.filter(
      (path) => !existsSync(new URL(`../${path}`, import.meta.url)),
    );
    expect(missing).toEqual([]);
  });
});
