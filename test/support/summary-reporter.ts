// Closes every run with the tests that were skipped, by name and with the reason their title gives
// (a test that needs a service says which), then one plain line "N passed, N failed, N skipped".
// On CI (CI=true) every service a test needs is there, so a whole run that skipped anything fails:
// whatever way a test was skipped (test/skip-rule.test.ts finds the ways it can see in the source).
// A run narrowed by name (-t) leaves the other tests skipped on purpose and is not judged.
import type { Reporter, TestModule, Vitest } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  private narrowedByName = false;

  onInit(vitest: Vitest) {
    this.narrowedByName = Boolean(vitest.config.testNamePattern);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    const skipped: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped.push(`${module.moduleId.replace(`${process.cwd()}/`, '')} > ${test.fullName}`);
      }
    }
    const out = process.stdout;
    if (skipped.length > 0) {
      out.write(`\nskipped tests (${skipped.length}):\n`);
      for (const name of skipped) out.write(`  - ${name}\n`);
    }
    // a file whose setup failed shows its tests as skipped, not failed: say so, or the line reads green
    const failedFiles = testModules.filter((module) => module.state() === 'failed').length;
    out.write(
      `\n${passed} passed, ${failed} failed, ${skipped.length} skipped${failedFiles ? `, ${failedFiles} test files failed` : ''}\n`,
    );
    if (process.env.CI === 'true' && skipped.length > 0 && !this.narrowedByName) {
      out.write(
        `on CI no test may skip: ${skipped.length} did (above, or their file's setup failed); the run fails\n`,
      );
      process.exitCode = 1;
    }
  }
}
