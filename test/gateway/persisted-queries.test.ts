// Automatic persisted queries through a real client: the README's GraphQL example run by Apollo
// Client with its persisted-query link takes two round trips the first time (hash, then hash and
// document) and one from then on. A hash we do not hold answers the standard
// PERSISTED_QUERY_NOT_FOUND; a hash that is not its document's is refused; a frontend's own
// manifest (the client preset's persisted-documents.json) is served by hash and by documentId.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { startSeededServer, type SeededServer } from '../support/seeded-server.ts';
import { PersistedOperations } from '../../src/gateway/persisted-operations.ts';
import { schema } from '../../src/gateway/schema.ts';

let server: SeededServer;

beforeAll(async () => {
  server = await startSeededServer({ stores: 40 });
});
afterAll(async () => {
  await server?.close();
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The README's GraphQL example: its first graphql block and the JSON variables after it. */
function readmeExample() {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const query = /```graphql\n([\s\S]*?)```/.exec(readme)?.[1];
  const variables = /```graphql\n[\s\S]*?```\s*```json\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!query || !variables) throw new Error('README has no GraphQL example with variables');
  return { query, variables: JSON.parse(variables) as Record<string, unknown> };
}

async function post(body: unknown) {
  const response = await fetch(`${server.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { data?: any; errors?: any[] };
}

describe('automatic persisted queries', () => {
  it("runs the README example through Apollo Client's persisted-query link in one round trip the second time", async () => {
    const { query, variables } = readmeExample();
    const sent: Array<{ query?: string; hash?: string }> = [];
    const countingFetch: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body));
      sent.push({ query: body.query, hash: body.extensions?.persistedQuery?.sha256Hash });
      return fetch(input, init);
    };
    const client = () =>
      new ApolloClient({
        cache: new InMemoryCache(),
        link: ApolloLink.from([
          new PersistedQueryLink({ sha256 }),
          new HttpLink({ uri: `${server.baseUrl}/graphql`, fetch: countingFetch }),
        ]),
      });

    const first = await client().query({
      query: gql(query),
      variables,
      fetchPolicy: 'network-only',
    });
    expect(first.data).toMatchObject({ store: { domain: variables.domain } });
    expect(sent).toHaveLength(2);
    expect(sent[0]).toEqual({ query: undefined, hash: expect.any(String) });
    expect(sent[1]).toEqual({ query: expect.any(String), hash: sent[0]!.hash });

    // a new client (another browser tab): its first request is the hash alone, and it is served
    sent.length = 0;
    const second = await client().query({
      query: gql(query),
      variables,
      fetchPolicy: 'network-only',
    });
    expect(second.data).toEqual(first.data);
    expect(sent).toEqual([{ query: undefined, hash: sent[0]!.hash }]);
  });

  it('answers an unknown hash with PERSISTED_QUERY_NOT_FOUND', async () => {
    const answer = await post({
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ nothingRegistered }') } },
    });
    expect(answer.errors?.[0]).toMatchObject({
      message: 'PersistedQueryNotFound',
      extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
    });
  });

  it('refuses a hash that is not the SHA-256 of the document sent with it, and registers nothing', async () => {
    const query = '{ analyticsOverview { stores } }';
    const wrong = sha256('{ something else }');
    const answer = await post({
      query,
      extensions: { persistedQuery: { version: 1, sha256Hash: wrong } },
    });
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'bad_request',
      details: { parameter: 'extensions.persistedQuery.sha256Hash' },
    });
    const retry = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: wrong } } });
    expect(retry.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('registers only documents that validate, and prices a registered one like any other', async () => {
    const invalid = '{ noSuchField }';
    await post({
      query: invalid,
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(invalid) } },
    });
    const again = await post({
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(invalid) } },
    });
    expect(again.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');

    const costly =
      '{ stores(first: 100) { edges { node { history(first: 180) { edges { node { day } } } } } } }';
    const registered = await post({
      query: costly,
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(costly) } },
    });
    const byHash = await post({
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(costly) } },
    });
    expect(registered.errors?.[0]?.extensions?.details?.parameter).toBe('query');
    expect(byHash.errors).toEqual(registered.errors);
  });
});

describe("the client preset's persisted-document manifest", () => {
  const document = 'query Overview { analyticsOverview { stores __typename } }';

  it('serves its documents by SHA-256 hash or documentId, and refuses a manifest whose key is not its document hash', () => {
    const sha1 = createHash('sha1').update(document).digest('hex');
    const operations = new PersistedOperations(
      schema,
      {},
      { [sha1]: document, [`sha256:${sha256(document)}`]: document },
    );
    expect(operations.textOf(sha1)).toBe(document);
    expect(operations.textOf(`sha256:${sha256(document)}`)).toBe(document);
    expect(() => new PersistedOperations(schema, {}, { [sha1]: `${document} ` })).toThrow(
      /not the SHA-256 or SHA-1/,
    );
    expect(() => new PersistedOperations(schema, {}, { [sha256('{ nope }')]: '{ nope }' })).toThrow(
      /not valid/,
    );
  });
});
