import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer.ts';

// Suites that replace a module with vi.mock need a fresh module graph of their own; every other
// suite shares its worker's graph, so the app (schema, Prisma client, Fastify) is imported once per
// worker instead of once per file.
const NEEDS_OWN_MODULES = [
  'test/reliability/security/keys.test.ts',
  'test/reliability/security/ssrf.test.ts',
];

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS (main) and ESM (module) builds without an exports map: Vite would load
    // the ESM one for our sources while Node loads the CJS one for Pothos, and graphql refuses to
    // mix two instances. One build for everyone, the one Node picks.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // much of a suite's time is spent waiting (servers and databases starting, timeouts running out):
    // a third worker fills that wait on two cores without starving the others
    pool: 'forks',
    maxWorkers: 3,
    reporters: ['default', './test/support/summary-reporter.ts'],
    // the longest suites first, also on a run without the previous run's durations
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: NEEDS_OWN_MODULES,
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-modules', include: NEEDS_OWN_MODULES } },
    ],
  },
});
