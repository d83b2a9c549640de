// Every file `npm run codegen` writes, computed in memory so that `--check` and the test
// (test/rest/generated-files.test.ts) compare exactly what a run would write.
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import {
  buildPersistedDocuments,
  manifestOf,
  readOperationSources,
} from './operation-documents.ts';
import { generateTypedDocuments } from './typed-documents.ts';

export interface GeneratedFile {
  /** relative to the repository root */
  path: string;
  content: string;
}

/** Stage 1: the GraphQL artifacts (need only the schema and the operation files). */
export async function graphqlFiles(schema: GraphQLSchema, root: string): Promise<GeneratedFile[]> {
  const sources = readOperationSources(root);
  const documents = buildPersistedDocuments(schema, sources);
  return [
    { path: 'schema/schema.graphql', content: `${printSchema(lexicographicSortSchema(schema))}\n` },
    {
      path: 'schema/persisted-operations.json',
      content: `${JSON.stringify(manifestOf(documents), null, 2)}\n`,
    },
    {
      path: 'rest/generated/operations.ts',
      content: await generateTypedDocuments(schema, sources),
    },
  ];
}

/** Stage 2: the self-description texts, generated from the route table (which imports stage 1's output). */
export async function selfDescriptionFiles(): Promise<GeneratedFile[]> {
  const { renderDocsMarkdown, renderLlmsTxt } = await import('../self-description/index.ts');
  return [
    { path: 'docs.md', content: renderDocsMarkdown() },
    { path: 'llms.txt', content: renderLlmsTxt() },
  ];
}
