// Automatic persisted queries (Apollo's APQ protocol): a client sends the SHA-256 of its document
// alone; a hash we do not hold answers PERSISTED_QUERY_NOT_FOUND, the client retries with hash and
// document, and that document is registered once it has validated, so the next request is one
// round trip with the hash alone. The store is bounded (least recently used entries go first), and
// a registered document runs through the same pipeline as any other: cost limit, charging, caching.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Plugin } from 'graphql-yoga';
import { GraphQLError } from 'graphql';
import { ApiError } from '../platform/errors.ts';

/** The standard code Apollo's persisted-query link (and urql's persistedExchange) retry on. */
export const PERSISTED_QUERY_NOT_FOUND = 'PERSISTED_QUERY_NOT_FOUND';

export const APQ_MAX_DOCUMENTS = 5_000;
/** documents are held as text: at most this many characters in all */
export const APQ_MAX_CHARACTERS = 8_000_000;

export type RegisteredQueries = LRUCache<string, string>;

export function registeredQueries(
  max = APQ_MAX_DOCUMENTS,
  maxSize = APQ_MAX_CHARACTERS,
): RegisteredQueries {
  return new LRUCache<string, string>({
    max,
    maxSize,
    sizeCalculation: (text) => Math.max(1, text.length),
  });
}

/** The hash of `extensions.persistedQuery` (version 1), when the request carries one. */
export function persistedQueryHash(extensions: unknown): string | undefined {
  if (typeof extensions !== 'object' || extensions === null) return undefined;
  const persisted = (extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } })
    .persistedQuery;
  return persisted?.version === 1 && typeof persisted.sha256Hash === 'string'
    ? persisted.sha256Hash
    : undefined;
}

const hashMismatch = () =>
  new ApiError(
    'bad_request',
    'extensions.persistedQuery.sha256Hash is not the SHA-256 of the query sent with it.',
    {
      parameter: 'extensions.persistedQuery.sha256Hash',
      rule: 'the SHA-256 (hex) of the query text',
    },
  );

/** What a document registration needs: a hash that is the document's own. Throws bad_request otherwise. */
export function registration(
  query: string,
  hash: string | undefined,
): { hash: string; query: string } | undefined {
  if (hash === undefined) return undefined;
  if (createHash('sha256').update(query).digest('hex') !== hash.toLowerCase()) throw hashMismatch();
  return { hash: hash.toLowerCase(), query };
}

export const persistedQueryNotFound = () =>
  new GraphQLError('PersistedQueryNotFound', { extensions: { code: PERSISTED_QUERY_NOT_FOUND } });

/** Registers a document sent with its hash, once it has validated (an invalid one is never stored). */
export function automaticPersistedQueriesPlugin(store: RegisteredQueries): Plugin {
  const pending = new WeakMap<object, { hash: string; query: string }>();
  return {
    onParams({ params, context }) {
      if (typeof params.query !== 'string') return;
      const sent = registration(params.query, persistedQueryHash(params.extensions));
      if (sent && !store.has(sent.hash)) pending.set(context, sent);
    },
    onValidate({ context }) {
      const sent = pending.get(context);
      if (!sent) return;
      return ({ valid }) => {
        if (valid) store.set(sent.hash, sent.query);
      };
    },
  };
}
