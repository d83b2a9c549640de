// Importing the embedded PostgreSQL module must not take over the process's exit code: the package
// it wraps answers 'beforeExit' with process.exit(0), which turned every failed test run (the test
// setup imports it) and every failed CLI command into a success.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const MODULE = new URL('../../../src/platform/database/embedded-postgres.ts', import.meta.url)
  .pathname;

describe('the embedded PostgreSQL module', () => {
  it('leaves a process that imports it the exit code it set', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(MODULE)}); process.exitCode = 3;`,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(3);
  });
});
