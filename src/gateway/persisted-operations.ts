// The persisted operations (schema/persisted-operations.json, written by `npm run codegen`:
// { "<sha256 hex of the document>": "<document>" }), loaded once for both faces: GraphQL clients
// may send such a hash instead of the document (arbitrary documents stay allowed), and each REST
// route runs one of them by name through the same envelop pipeline. Every document is parsed and
// validated at start, so a broken manifest fails the start, not a request; the parsed documents
// are the ones executed, so per-document caches (graphql-jit's compiled queries) hold them for good.
// Beside ours, a frontend's own manifest (the persisted-documents.json graphql-codegen's client
// preset writes, the same { hash: document } shape, SHA-256 or SHA-1) may be loaded, and documents
// registered by automatic persisted queries are looked up last (automatic-persisted-queries.ts).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { registeredQueries, type RegisteredQueries } from './automatic-persisted-queries.ts';
import { getOperationAST, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';

export const PERSISTED_OPERATIONS_FILE = fileURLToPath(
  new URL('../../schema/persisted-operations.json', import.meta.url),
);

export type Manifest = Record<string, string>;

export const operationHash = (document: string): string =>
  createHash('sha256').update(document).digest('hex');

/** A client manifest's key: the document's SHA-256 or SHA-1 (the client preset's default), hex, optionally prefixed `sha256:`/`sha1:`. */
function clientHashMatches(key: string, text: string): boolean {
  const [algorithm, hex] = key.includes(':') ? key.split(':', 2) : [undefined, key];
  const candidates = algorithm ? [algorithm] : ['sha256', 'sha1'];
  return candidates.some(
    (name) =>
      (name === 'sha256' || name === 'sha1') &&
      createHash(name).update(text).digest('hex') === hex!.toLowerCase(),
  );
}

export interface PersistedOperation {
  name: string;
  hash: string;
  text: string;
  document: DocumentNode;
}

/** The manifest; empty when codegen has not run yet. */
export function readManifest(file = PERSISTED_OPERATIONS_FILE): Manifest {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : {};
}

export class PersistedOperations {
  private readonly byName = new Map<string, PersistedOperation>();
  private readonly byHash = new Map<string, PersistedOperation>();
  private readonly documents = new WeakSet<DocumentNode>();
  /** a frontend's own persisted documents, by the key its client sends */
  private readonly clientDocuments = new Map<string, string>();
  /** documents registered by automatic persisted queries (bounded) */
  readonly registered: RegisteredQueries = registeredQueries();

  /**
   * Parses and validates every document; throws naming the first that is not sound. An entry whose
   * hash is not its document's is refused, so a hand-edited manifest cannot alias one operation to another.
   */
  constructor(
    schema: GraphQLSchema,
    manifest: Manifest = readManifest(),
    clientManifest: Manifest = {},
  ) {
    for (const [hash, text] of Object.entries(manifest)) {
      if (operationHash(text) !== hash)
        throw new Error(`persisted operation ${hash}: hash does not match its document`);
      const document = parse(text);
      const errors = validate(schema, document);
      if (errors.length > 0)
        throw new Error(
          `persisted operation ${hash} is not valid: ${errors.map((e) => e.message).join('; ')}`,
        );
      const name = getOperationAST(document)?.name?.value;
      if (!name)
        throw new Error(`persisted operation ${hash} must hold exactly one named operation`);
      const operation = { name, hash, text, document };
      this.byName.set(name, operation);
      this.byHash.set(hash, operation);
      this.documents.add(document);
    }
    for (const [key, text] of Object.entries(clientManifest)) {
      if (!clientHashMatches(key, text))
        throw new Error(
          `persisted document ${key}: key is not the SHA-256 or SHA-1 of its document`,
        );
      const errors = validate(schema, parse(text));
      if (errors.length > 0)
        throw new Error(
          `persisted document ${key} is not valid: ${errors.map((e) => e.message).join('; ')}`,
        );
      this.clientDocuments.set(key, text);
    }
  }

  /** The document text of a hash (or client document id) a GraphQL client sent, or null. */
  textOf(hash: string): string | null {
    return (
      this.byHash.get(hash)?.text ??
      this.clientDocuments.get(hash) ??
      this.registered.get(hash) ??
      null
    );
  }

  /** The persisted operation of this name (a REST route names its operation through its typed document). */
  get(typed: DocumentNode): PersistedOperation {
    const name = getOperationAST(typed)?.name?.value ?? '(anonymous)';
    const operation = this.byName.get(name);
    if (!operation)
      throw new Error(
        `operation ${name} is not in the persisted-operations manifest; run npm run codegen`,
      );
    return operation;
  }

  /** Every persisted operation (compiled at start, see yoga.ts). */
  all(): PersistedOperation[] {
    return [...this.byName.values()];
  }

  /** Whether this parsed document is one of ours (executed by REST): compiled, and cacheable when its fields allow. */
  isPersisted(document: DocumentNode): boolean {
    return this.documents.has(document);
  }
}
