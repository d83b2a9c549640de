// Reads the operations beside their routes: one operation per .graphql file in each route group's
// folder of rest/routes (one per REST route) and shared fragments in rest/routes/fragments/. A
// persisted document is the operation plus exactly the fragments it uses, printed canonically, so
// its sha256 is stable and a document never depends on files it does not name.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import {
  Kind,
  parse,
  print,
  validate,
  visit,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { operationHash, type Manifest } from '../../src/gateway/persisted-operations.ts';

export interface OperationSource {
  /** path relative to the repository root, for messages and codegen locations */
  location: string;
  document: DocumentNode;
}

export interface PersistedDocument {
  name: string;
  location: string;
  text: string;
}

/** Where the operation documents live, relative to the repository root: a folder per route group. */
export const OPERATIONS_DIR = 'rest/routes';

export function readOperationSources(root: string): {
  operations: OperationSource[];
  fragments: OperationSource[];
} {
  const dir = join(root, OPERATIONS_DIR);
  const fragmentsDir = join(dir, 'fragments');
  const groups = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'fragments')
    .map((entry) => join(dir, entry.name));
  // sorted by file name, not path, so a document's place in the generated files does not depend
  // on the group its route sits in
  const read = (folders: string[]) =>
    folders
      .flatMap((folder) =>
        readdirSync(folder)
          .filter((file) => file.endsWith('.graphql'))
          .map((file) => join(folder, file)),
      )
      .sort(byFileName)
      .map((path) => ({
        location: relative(root, path),
        document: parse(readFileSync(path, 'utf8')),
      }));
  return { operations: read(groups), fragments: read([fragmentsDir]) };
}

const byFileName = (a: string, b: string) => compare(basename(a), basename(b)) || compare(a, b);
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function buildPersistedDocuments(
  schema: GraphQLSchema,
  sources: { operations: OperationSource[]; fragments: OperationSource[] },
): PersistedDocument[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const source of sources.fragments) {
    for (const definition of source.document.definitions) {
      if (definition.kind !== Kind.FRAGMENT_DEFINITION) {
        throw new Error(`${source.location}: only fragments belong in ${OPERATIONS_DIR}/fragments`);
      }
      if (fragments.has(definition.name.value)) {
        throw new Error(`${source.location}: fragment ${definition.name.value} is defined twice`);
      }
      fragments.set(definition.name.value, definition);
    }
  }

  const names = new Set<string>();
  const documents = sources.operations.map((source) => {
    const operation = singleOperation(source);
    const name = operation.name!.value;
    if (names.has(name)) throw new Error(`${source.location}: operation ${name} is defined twice`);
    names.add(name);

    const used = usedFragments(operation, fragments, source.location);
    const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [operation, ...used] };
    const errors = validate(schema, document);
    if (errors.length > 0) {
      throw new Error(
        `${source.location} does not validate:\n${errors.map((e) => `  ${e.message}`).join('\n')}`,
      );
    }
    return { name, location: source.location, text: print(document) };
  });

  const unused = [...fragments.keys()].filter(
    (fragment) => !documents.some((document) => document.text.includes(`fragment ${fragment} on`)),
  );
  if (unused.length > 0) throw new Error(`unused fragments: ${unused.join(', ')}`);
  return documents;
}

export function manifestOf(documents: PersistedDocument[]): Manifest {
  const entries = documents.map(
    (document) => [operationHash(document.text), document.text] as const,
  );
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

function singleOperation(source: OperationSource): OperationDefinitionNode {
  const [definition, ...rest] = source.document.definitions;
  if (
    !definition ||
    rest.length > 0 ||
    definition.kind !== Kind.OPERATION_DEFINITION ||
    !definition.name
  ) {
    throw new Error(
      `${source.location}: must hold exactly one named operation (fragments go to fragments/)`,
    );
  }
  return definition;
}

/** The fragments an operation spreads, transitively, sorted by name. */
function usedFragments(
  operation: OperationDefinitionNode,
  fragments: Map<string, FragmentDefinitionNode>,
  location: string,
): FragmentDefinitionNode[] {
  const found = new Map<string, FragmentDefinitionNode>();
  const pending: Array<OperationDefinitionNode | FragmentDefinitionNode> = [operation];
  while (pending.length > 0) {
    visit(pending.pop()!, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        if (found.has(name)) return;
        const fragment = fragments.get(name);
        if (!fragment) throw new Error(`${location}: unknown fragment ${name}`);
        found.set(name, fragment);
        pending.push(fragment);
      },
    });
  }
  return [...found.values()].sort((a, b) => a.name.value.localeCompare(b.name.value));
}
