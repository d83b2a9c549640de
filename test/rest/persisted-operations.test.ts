// REST runs only persisted, validated documents (through the one pipeline), and turns GraphQL errors
// into the contract's codes without leaking internals.
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { toApiError } from '../../rest/graphql-errors.ts';
import {
  operationHash,
  PersistedOperations,
  readManifest,
} from '../../src/gateway/persisted-operations.ts';
import { catalogRoutes } from '../../rest/routes/index.ts';
import { schema } from '../../src/gateway/schema.ts';
import { ApiError } from '../../src/platform/errors.ts';
import { createLogger } from '../../src/platform/logger.ts';

const logger = createLogger('silent');

describe('persisted operations', () => {
  it('hold exactly one operation per catalog route, each keyed by the sha256 of its text', () => {
    const manifest = readManifest();
    for (const [hash, text] of Object.entries(manifest)) expect(operationHash(text)).toBe(hash);
    const operations = new PersistedOperations(schema, manifest);
    const names = catalogRoutes.map((route) => operations.get(route.document).name);
    expect(new Set(names).size).toBe(catalogRoutes.length);
    expect(Object.keys(manifest)).toHaveLength(catalogRoutes.length);
  });

  it('refuse to start on a tampered or invalid document', () => {
    const [hash, text] = Object.entries(readManifest())[0]!;
    expect(() => new PersistedOperations(schema, { [hash]: `${text} ` })).toThrow(
      /hash does not match/,
    );
    const invalid = 'query Broken { store(domain: "x") { noSuchField } }';
    expect(() => new PersistedOperations(schema, { [operationHash(invalid)]: invalid })).toThrow(
      /not valid/,
    );
  });
});

describe('GraphQL errors on REST', () => {
  it('keep the ApiError a resolver threw, with its code and details', () => {
    const original = new ApiError('not_found', 'No store x.com', { domain: 'x.com' });
    const error = new GraphQLError(original.message, { originalError: original });
    expect(toApiError([error], logger, 'GetStore')).toBe(original);
  });

  it('keep a contract code carried only in extensions', () => {
    const error = new GraphQLError('Invalid limit: must be at most 100', {
      extensions: {
        code: 'bad_request',
        details: { parameter: 'limit', rule: 'must be at most 100' },
      },
    });
    const mapped = toApiError([error], logger, 'SearchStores');
    expect(mapped).toMatchObject({
      code: 'bad_request',
      status: 400,
      details: { parameter: 'limit', rule: 'must be at most 100' },
    });
  });

  it('turn anything else into a generic internal error (500) without the original message', () => {
    const error = new GraphQLError('connect ECONNREFUSED 10.0.0.5:5432', {
      originalError: new Error('connect ECONNREFUSED 10.0.0.5:5432'),
    });
    const mapped = toApiError([error], logger, 'SearchStores');
    expect(mapped).toMatchObject({ code: 'internal', status: 500, details: null });
    expect(mapped.message).not.toContain('ECONNREFUSED');
  });
});
