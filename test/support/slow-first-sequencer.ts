// Orders the suites so the longest start first. Vitest does so from the durations of the previous
// run (kept in node_modules/.vite); without them (a clean clone, CI after `npm ci`) it starts the
// largest files first, and a long but short-to-read suite (a browser, a fresh embedded PostgreSQL,
// a real driver's timeouts) could start last and run alone while the other worker sits idle. The
// suites named here, longest first, start before the others whenever the previous run left no
// duration for them; the rest keep Vitest's order.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** the suites that take longest, longest first (paths from the repository root) */
export const LONGEST_SUITES = [
  'test/self-description/docs-console.browser.test.ts',
  'test/stores/relevance/relevance.test.ts',
  'test/storefront/fresh-install-lifecycle.e2e.test.ts',
  'test/platform/embedded-supervision.test.ts',
  'test/self-description/offline-pages.browser.test.ts',
  'test/reliability/faults/legacy-store-down.test.ts',
  'test/contract/seed-rules.e2e.test.ts',
  'test/crawler/crash-resume.test.ts',
  'test/access/two-processes.test.ts',
  'test/self-description/storefront-route-examples.test.ts',
  'test/self-description/storefront-recipes.test.ts',
  'test/reliability/faults/gateway-killed-mid-request.test.ts',
  'test/rest/query-plans.test.ts',
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      if (this.ctx.cache.getTestSpecificationResult(file)) return LONGEST_SUITES.length;
      const index = LONGEST_SUITES.findIndex((suite) => file.moduleId.endsWith(`/${suite}`));
      return index === -1 ? LONGEST_SUITES.length : index;
    };
    // a stable sort: the suites not named keep Vitest's order behind the named ones
    return sorted
      .map((file, position) => ({ file, position, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.position - b.position)
      .map(({ file }) => file);
  }
}
