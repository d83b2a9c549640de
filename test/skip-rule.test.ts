// On CI (CI=true) every service a test needs is there, so no test may skip: a service gone missing
// must fail the run, not thin it silently. A user's `npm test` may skip, by name, what it lacks.
// The one way to skip is skipWithout (test/support/skip-without.ts), which never skips on CI; this
// suite finds every other way a test file could skip or be left out and fails on it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { skipWithout } from './support/skip-without.ts';

const TEST_ROOT = fileURLToPath(new URL('.', import.meta.url));

function testSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testSources(path);
    return entry.name.endsWith('.ts') && path !== fileURLToPath(import.meta.url) ? [path] : [];
  });
}

/**
 * vitest's ways of not running a test: a skip, a condition, a todo, or one test run `only`, also
 * behind a modifier (it.concurrent.skip, describe.skip.each, it.skip.for) or called through a tag
 */
const SKIPPING =
  /\b(?:it|test|describe|suite|bench)(?:\s*\.\s*(?:concurrent|sequential|shuffle|each|for|fails))*\s*\.\s*(skip|skipIf|runIf|todo|only)\b|\bctx\.skip\(|\bcontext\.skip\(/g;
/** the one allowed form: skipIf(skipWithout(one value)), nothing added to the condition */
const SKIP_WITHOUT = /\.skipIf\(\s*skipWithout\((?:[^()]|\([^()]*\))*\)\s*\)/;

describe('the skip rule', () => {
  const previousCi = process.env.CI;
  afterEach(() => {
    if (previousCi === undefined) delete process.env.CI;
    else process.env.CI = previousCi;
  });

  it('skips a test for a missing service on a user machine only, never on CI', () => {
    delete process.env.CI;
    expect(skipWithout(undefined)).toBe(true);
    expect(skipWithout('redis://127.0.0.1:6379')).toBe(false);
    process.env.CI = 'true';
    expect(skipWithout(undefined)).toBe(false);
  });

  it('every conditional skip in the suites goes through skipWithout, and nothing is skipped outright', () => {
    const offences: string[] = [];
    for (const file of testSources(TEST_ROOT)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(SKIPPING)) {
        const line = text.slice(0, match.index).split('\n').length;
        const call = text.slice(match.index, text.indexOf('\n', match.index));
        if (match[1] === 'skipIf' && SKIP_WITHOUT.test(call)) continue;
        offences.push(`${relative(TEST_ROOT, file)}:${line}: ${call.trim()}`);
      }
    }
    expect(offences).toEqual([]);
  });
});
