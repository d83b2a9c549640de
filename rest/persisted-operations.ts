// The REST side runs only persisted operations: the documents of schema/persisted-operations.json,
// each parsed, validated and compiled with graphql-jit against the schema once, at start (compiled,
// the profile's execution costs about a fifth less CPU than graphql-js interpreting the document; an
// operation jit cannot compile runs on graphql-js). A route names its operation through the
// generated typed document; the executed document is the manifest's.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import {
  execute,
  getOperationAST,
  parse,
  validate,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import type { Logger } from '../src/platform/logger.ts';
import { toApiError } from './graphql-errors.ts';

export const MANIFEST_URL = new URL('../schema/persisted-operations.json', import.meta.url);

export type Manifest = Record<string, string>;

export interface PersistedOperation {
  name: string;
  hash: string;
  document: DocumentNode;
  /** absent when graphql-jit could not compile the document: graphql-js runs it */
  compiled?: CompiledQuery;
}

export function readManifest(url: URL = MANIFEST_URL): Manifest {
  return JSON.parse(readFileSync(url, 'utf8')) as Manifest;
}

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

export class PersistedOperations {
  private readonly byName: Map<string, PersistedOperation>;

  private constructor(
    private readonly schema: GraphQLSchema,
    operations: PersistedOperation[],
    private readonly logger: Logger,
  ) {
    this.byName = new Map(operations.map((operation) => [operation.name, operation]));
  }

  /** Parses and validates every document; throws naming the first that is not sound. */
  static load(schema: GraphQLSchema, manifest: Manifest, logger: Logger): PersistedOperations {
    const operations = Object.entries(manifest).map(([hash, text]) => {
      if (sha256Hex(text) !== hash) throw new Error(`persisted operation ${hash}: hash does not match its document`);
      const document = parse(text);
      const errors = validate(schema, document);
      if (errors.length > 0) {
        throw new Error(`persisted operation ${hash} is not valid: ${errors.map((e) => e.message).join('; ')}`);
      }
      const name = getOperationAST(document)?.name?.value;
      if (!name) throw new Error(`persisted operation ${hash} must hold exactly one named operation`);
      const compiled = compileQuery(schema, document, name);
      if (!isCompiledQuery(compiled)) logger.warn({ operation: name, errors: compiled.errors?.map((e) => e.message) }, 'persisted operation runs uncompiled');
      return { name, hash, document, compiled: isCompiledQuery(compiled) ? compiled : undefined };
    });
    return new PersistedOperations(schema, operations, logger);
  }

  get(typed: DocumentNode): PersistedOperation {
    const name = getOperationAST(typed)?.name?.value ?? '(anonymous)';
    const operation = this.byName.get(name);
    if (!operation) throw new Error(`operation ${name} is not in the persisted-operations manifest; run npm run codegen`);
    return operation;
  }

  /** Runs the operation in-process; resolves with its data or rejects with an ApiError. */
  async execute<TData, TVariables>(
    typed: TypedDocumentNode<TData, TVariables>,
    variables: TVariables,
    contextValue: unknown,
  ): Promise<TData> {
    const operation = this.get(typed);
    // An explicit undefined would reach resolvers as null; an absent key takes the defaults.
    const variableValues = withoutUndefined(variables as Record<string, unknown>);
    const result = operation.compiled
      ? await operation.compiled.query(undefined, contextValue, variableValues)
      : await execute({ schema: this.schema, document: operation.document, variableValues, contextValue });
    if (result.errors?.length) throw toApiError(result.errors, this.logger, operation.name);
    return result.data as TData;
  }
}

function withoutUndefined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}
