// npm run codegen: writes each feature's GraphQL face (src/<feature>/<feature>.schema.ts),
// schema/schema.graphql, schema/persisted-operations.json, rest/generated/operations.ts, docs.md,
// llms.txt and the typed client's openapi.json and src/schema.ts (clients/typescript). With --check
// it writes nothing and exits 1 when any of them differs from what is on disk (CI and
// test/rest/generated-files.test.ts).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { featureFaces } from './rest/codegen/feature-faces.ts';
import type { GeneratedFile } from './rest/codegen/generated-files.ts';

const root = dirname(fileURLToPath(import.meta.url));
const check = process.argv.includes('--check');

const readOrEmpty = (path: string) => {
  try {
    return readFileSync(join(root, path), 'utf8');
  } catch {
    return '';
  }
};

function apply(files: GeneratedFile[]): string[] {
  const stale = files
    .filter((file) => readOrEmpty(file.path) !== file.content)
    .map((file) => file.path);
  if (!check) {
    for (const file of files) {
      mkdirSync(dirname(join(root, file.path)), { recursive: true });
      writeFileSync(join(root, file.path), file.content);
    }
  }
  return stale;
}

// The schema is assembled from the faces, so they are written before anything imports it; stage 2
// imports the route table, which imports stage 1's output: write stage 1 first.
const stale = apply(featureFaces(root));
const { schema } = await import('./src/gateway/schema.ts');
const { graphqlFiles, selfDescriptionFiles } = await import('./rest/codegen/generated-files.ts');
const { clientFiles } = await import('./rest/codegen/client-files.ts');
stale.push(...apply(await graphqlFiles(schema, root)));
stale.push(...apply(await selfDescriptionFiles()));
stale.push(...apply(await clientFiles(root)));

if (check && stale.length > 0) {
  console.error(
    `generated files are stale (run npm run codegen):\n${stale.map((p) => `  ${p}`).join('\n')}`,
  );
  process.exit(1);
}
console.log(
  check
    ? 'generated files are up to date'
    : `generated files written${stale.length ? `: ${stale.join(', ')}` : ' (no changes)'}`,
);
