// The generated files on disk must be what `npm run codegen` would write now: a stale
// schema.graphql, manifest, typed documents, docs.md, llms.txt or typed client fails the suite.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/gateway/schema.ts';
import { selfDescriptionFiles, graphqlFiles } from '../../rest/codegen/generated-files.ts';
import { clientFiles } from '../../rest/codegen/client-files.ts';

const root = join(import.meta.dirname, '../..');
const onDisk = (path: string) => {
  try {
    return readFileSync(join(root, path), 'utf8');
  } catch {
    return '(missing)';
  }
};

function firstDifference(disk: string, generated: string): string {
  const a = disk.split('\n');
  const b = generated.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: on disk ${JSON.stringify(a[at]?.slice(0, 80))}, generated ${JSON.stringify(b[at]?.slice(0, 80))}`;
}

describe('generated files', () => {
  it('are up to date with the schema, the operations and the route table (npm run codegen)', async () => {
    const files = [
      ...(await graphqlFiles(schema, root)),
      ...(await selfDescriptionFiles()),
      ...(await clientFiles(root)),
    ];
    expect(files.map((file) => file.path)).toEqual([
      'schema/schema.graphql',
      'schema/persisted-operations.json',
      'rest/generated/operations.ts',
      'docs.md',
      'llms.txt',
      'clients/typescript/openapi.json',
      'clients/typescript/src/schema.ts',
    ]);
    const stale = files
      .filter((file) => onDisk(file.path) !== file.content)
      .map((file) => `${file.path} (${firstDifference(onDisk(file.path), file.content)})`);
    expect(stale, 'stale generated files: run npm run codegen').toEqual([]);
  });
});
