// Closes every run with the tests that were skipped, by name and with the reason their title gives
// (a test that needs a service says which), then one plain line "N passed, N failed, N skipped".
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
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
    out.write(`\n${passed} passed, ${failed} failed, ${skipped.length} skipped\n`);
  }
}
