// The error masker: contract errors keep code and details; database timeouts become
// query_timeout; anything unexpected becomes `internal` with none of its text.
import { describe, expect, it } from 'vitest';
import { GraphQLError } from 'graphql';
import { createErrorMasker } from '../../src/gateway/errors.ts';
import { ApiError } from '../../src/platform/errors.ts';
import { createLogger } from '../../src/platform/logger.ts';

const mask = createErrorMasker(createLogger('silent'));
const fromResolver = (original: Error) =>
  new GraphQLError(original.message, { path: ['store'], originalError: original });

describe('createErrorMasker', () => {
  it('keeps an ApiError thrown by a resolver, with its path', () => {
    const masked = mask(
      fromResolver(new ApiError('not_found', 'No store x.com', { domain: 'x.com' })),
    ) as GraphQLError;
    expect(masked.message).toBe('No store x.com');
    expect(masked.extensions).toEqual({ code: 'not_found', details: { domain: 'x.com' } });
    expect(masked.path).toEqual(['store']);
  });

  it('turns a PostgreSQL statement timeout into query_timeout', () => {
    const timeout = Object.assign(new Error('canceling statement due to statement timeout'), {
      code: '57014',
    });
    const masked = mask(fromResolver(timeout)) as GraphQLError;
    expect(masked.extensions.code).toBe('query_timeout');
    expect(masked.message).not.toContain('canceling');
  });

  it('hides an unexpected failure behind internal', () => {
    const masked = mask(
      fromResolver(new TypeError('cannot read properties of undefined (secret detail)')),
    ) as GraphQLError;
    expect(masked.message).toBe('Internal server error.');
    expect(masked.extensions).toEqual({ code: 'internal', details: null });
    expect(JSON.stringify(masked.toJSON())).not.toContain('secret');
  });

  it('passes GraphQL request errors (syntax, validation) unchanged', () => {
    const validation = new GraphQLError('Cannot query field "nope" on type "Query".');
    expect(mask(validation)).toBe(validation);
  });
});
