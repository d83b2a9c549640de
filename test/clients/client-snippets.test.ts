// The typed client as a newcomer uses it, checked by the compiler: every ```ts block of the client's
// README, and an ordinary list loop over /v1/stores (page.total, data.map over the store cards),
// compile with tsc against the generated types. Runs no server: a type error fails the test.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'clients/typescript/README.md'), 'utf8');

const LIST_LOOP = `
import { createStoreIntelligenceClient } from '@store-intelligence/client';
const api = createStoreIntelligenceClient({ baseUrl: 'http://localhost:8080' });
const domains: string[] = [];
for (let offset = 0; ; offset += 100) {
  const { data, error } = await api.GET('/v1/stores', { params: { query: { countryCode: 'US', limit: 100, offset } } });
  if (error) throw new Error(error.error.message);
  domains.push(...data.data.map((store) => store.domain));
  console.log(\`\${offset + data.page.count} of \${data.page.total}\`, data.data[0]?.monthlyRevenueUsd.high);
  if (!data.page.hasMore) break;
}
export {};
`;

/** The README's TypeScript blocks, each a module of its own. */
const readmeSnippets = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map(
  ([, code]) => `${code}\nexport {};\n`,
);

describe('typed client snippets', () => {
  it('the README has TypeScript examples, among them an export', () => {
    expect(readmeSnippets.length).toBeGreaterThanOrEqual(2);
    expect(readme).toMatch(/exportList\(/);
  });

  it('the README snippets and a list loop compile (tsc, strict)', async () => {
    // inside the repository, so `@store-intelligence/client` resolves through the workspace link
    const dir = mkdtempSync(join(root, 'test/clients/.snippets-'));
    try {
      const files = [...readmeSnippets, LIST_LOOP].map((code, index) => {
        const file = join(dir, `snippet-${index}.ts`);
        writeFileSync(file, code);
        return file;
      });
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          extends: '../../../tsconfig.json',
          compilerOptions: { noUnusedLocals: false },
          include: [],
          files,
        }),
      );
      const tsc = join(root, 'node_modules/.bin/tsc');
      const result = await promisify(execFile)(tsc, ['-p', join(dir, 'tsconfig.json')], {
        cwd: root,
      }).then(
        () => ({ output: '' }),
        (error: { stdout?: string }) => ({ output: error.stdout ?? String(error) }),
      );
      expect(result.output.replaceAll(dir, '<snippets>')).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
