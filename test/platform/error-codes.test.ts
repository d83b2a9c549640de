// The contract (part 7): every error's `code` is one of six. This suite enumerates every place the
// service makes an error — each ApiError construction and named reason in the sources, each error
// schema of the OpenAPI description, the error tables of docs.md and llms.txt — and fails on any
// code outside the six, so a new code added anywhere cannot slip past.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../rest/openapi/document.ts';
import { renderDocsMarkdown } from '../../rest/self-description/docs-md.ts';
import { renderLlmsTxt } from '../../rest/self-description/llms-txt.ts';
import { ERROR_CODES, HTTP_STATUS, REASONS, reasonError } from '../../src/platform/errors.ts';

/** Spec part 7, word for word. */
const CONTRACT_CODES = [
  'not_found',
  'bad_request',
  'unauthorized',
  'rate_limited',
  'query_timeout',
  'internal',
];

const ROOT = new URL('../../', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'generated' || name === 'node_modules') return [];
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every literal first argument of `new ApiError(…)` and `reasonError(…)` with where it stands. */
function constructedErrors(): Array<{ at: string; kind: 'code' | 'reason'; value: string }> {
  const found: Array<{ at: string; kind: 'code' | 'reason'; value: string }> = [];
  for (const file of [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'rest'))]) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/new ApiError\(\s*'([^']+)'|reasonError\(\s*'([^']+)'/g)) {
      const line = text.slice(0, match.index).split('\n').length;
      const at = `${relative(ROOT, file)}:${line}`;
      if (match[1]) found.push({ at, kind: 'code', value: match[1] });
      else found.push({ at, kind: 'reason', value: match[2]! });
    }
  }
  return found;
}

describe("error codes are the contract's six, everywhere", () => {
  it("the code list is exactly the contract's", () => {
    expect([...ERROR_CODES].sort()).toEqual([...CONTRACT_CODES].sort());
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...CONTRACT_CODES].sort());
  });

  it('every error the sources construct carries one of the six (directly or through its named reason)', () => {
    const errors = constructedErrors();
    // the scan sees the service's errors: dozens of them, in every feature
    expect(errors.length).toBeGreaterThan(30);
    for (const error of errors) {
      if (error.kind === 'code') expect(CONTRACT_CODES, error.at).toContain(error.value);
      else expect(Object.keys(REASONS), error.at).toContain(error.value);
    }
    for (const [reason, { code }] of Object.entries(REASONS))
      expect(CONTRACT_CODES, reason).toContain(code);
  });

  it('a named reason sets its status and keeps a contract code, over REST and in GraphQL extensions', () => {
    const tracked = reasonError('already_tracked', 'already watched', { domain: 'example.com' });
    expect([tracked.code, tracked.status, tracked.extensions.code]).toEqual([
      'bad_request',
      409,
      'bad_request',
    ]);
    const partner = reasonError('scope', 'read only');
    expect([partner.code, partner.status, partner.details]).toEqual([
      'unauthorized',
      403,
      { reason: 'scope' },
    ]);
  });

  it('the OpenAPI description documents no other code', () => {
    const document = buildOpenApiDocument();
    const schemas = document.components?.schemas ?? {};
    const codes = new Set<string>();
    for (const [name, schema] of Object.entries(schemas)) {
      if (!name.startsWith('Error_')) continue;
      const code = (schema as any).properties.error.properties.code;
      for (const value of code.enum ?? [code.const]) codes.add(value);
    }
    expect([...codes].sort()).toEqual([...CONTRACT_CODES].sort());
  });

  it('docs.md and llms.txt name no other code', () => {
    for (const text of [renderDocsMarkdown(), renderLlmsTxt()]) {
      expect(text).not.toMatch(/`(forbidden|conflict)`|code[^.\n]{0,20}\b(forbidden|conflict)\b/);
      const tableCodes = [...text.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => m[1]);
      for (const code of tableCodes) expect(CONTRACT_CODES).toContain(code);
    }
  });
});
