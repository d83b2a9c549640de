// The JSON lane of /graphql (src/gateway/json-lane.ts) answers exactly what Yoga's own handler
// answers: every request is sent to a server with the lane and to one without it, and the status,
// the headers a client reads and the body must be the same. The lane takes the common requests and
// hands every other kind back to Yoga before anything ran.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../app/server.ts';
import { jsonAnswerType, jsonLane } from '../../src/gateway/json-lane.ts';
import { operationHash, PersistedOperations } from '../../src/gateway/persisted-operations.ts';
import { schema } from '../../src/gateway/schema.ts';
import { createGraphqlYoga } from '../../src/gateway/pipeline.ts';
import { loadCatalogFixture } from '../support/catalog-fixture.ts';
import { createTestServices, type CatalogTestServices } from '../support/test-services.ts';

let t: CatalogTestServices;
let withLane: FastifyInstance;
let yogaOnly: FastifyInstance;

beforeAll(async () => {
  t = await createTestServices();
  await loadCatalogFixture(t.services.db.pool, t.services.legacy);
  withLane = await buildServer(t.services);
  yogaOnly = await buildServer(t.services, { graphqlJsonLane: false });
});
afterAll(async () => {
  await withLane?.close();
  await yogaOnly?.close();
  await t?.close();
});

const CARD = `query Card($domain: String!) { store(domain: $domain) { domain monthlyVisits monthlyRevenueUsd { low high }
  traffic { latest { month organic } } sources } }`;
/** headers whose values differ between two answers by design (a fresh id, the clock, the remaining quota) */
const PER_REQUEST = new Set([
  'x-request-id',
  'date',
  'x-ratelimit-remaining',
  'ratelimit',
  'x-ratelimit-reset',
  'connection',
]);

async function answerOf(app: FastifyInstance, payload: unknown, headers: Record<string, string>) {
  const response = await app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(payload),
  });
  const kept = Object.entries(response.headers).filter(([name]) => !PER_REQUEST.has(name));
  return {
    status: response.statusCode,
    headers: Object.fromEntries(kept.sort(([a], [b]) => a.localeCompare(b))),
    // like the reset headers, the seconds until a limit renews are the moment's, not the lane's
    body: response.body.replace(/"resetSeconds":\d+/g, '"resetSeconds":0'),
  };
}

/** store → products → edges → node → store …: depth 14, past armor's 12 */
const DEEP = [0, 1, 2].reduce(
  (selection) => `store { products { edges { node { ${selection} } } } }`,
  'handle',
);

const ACCEPTS: Record<string, Record<string, string>> = {
  'no Accept': {},
  'Accept: application/json': { accept: 'application/json' },
  'Accept: */*': { accept: '*/*' },
  'Accept: graphql-response+json first': {
    accept: 'application/graphql-response+json, application/json',
  },
  'Accept: json first, utf-8 named': {
    accept: 'application/json;charset=utf-8, application/graphql-response+json',
  },
};

const REQUESTS: Record<string, unknown> = {
  'a store card': { query: CARD, variables: { domain: 'acme-apparel.com' } },
  'a store the catalog lacks (not_found)': {
    query: CARD,
    variables: { domain: 'missing-store.com' },
  },
  'a variable of the wrong type': { query: CARD, variables: { domain: 42 } },
  'a missing required variable': { query: CARD },
  'two operations, one named': {
    query: `${CARD} query Other { __typename }`,
    operationName: 'Card',
    variables: { domain: 'acme-apparel.com' },
  },
  'two operations, none named': { query: `${CARD} query Other { __typename }` },
  'an unknown operation name': {
    query: CARD,
    operationName: 'Nope',
    variables: { domain: 'acme-apparel.com' },
  },
  'a field the schema lacks (validation)': {
    query: '{ store(domain: "acme-apparel.com") { nope } }',
  },
  'a syntax error': { query: '{ store(' },
  'a query deeper than armor allows': {
    query: `{ product(domain: "acme-apparel.com", handle: "classic-hoodie") { ${DEEP} } }`,
  },
  'an alias bomb': {
    query: `{ ${Array.from({ length: 50 }, (_, i) => `a${i}: analyticsOverview { stores }`).join(' ')} }`,
  },
  'a mutation refused without the web app credential (401)': {
    query:
      'mutation { mintApiKey(input: { accountExternalId: "w", plan: "pro", name: "n" }) { key } }',
  },
  'a persisted operation by hash': {
    extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } },
  },
  'an unexpected parameter': { query: '{ __typename }', nope: 1 },
  'variables that are not an object': { query: CARD, variables: 'domain' },
  'a batch': [{ query: '{ __typename }' }],
  'null variables and operation name': {
    query: '{ __typename }',
    variables: null,
    operationName: null,
  },
};

/** a subscription is streamed (SSE, multipart) to a client that takes any type: compared where it asks for JSON only */
const SUBSCRIPTION = { query: 'subscription { recentScrapes { id } }' };

describe('the JSON lane answers as Yoga does', () => {
  for (const [acceptName, accept] of Object.entries(ACCEPTS)) {
    for (const [requestName, payload] of Object.entries(REQUESTS)) {
      it(`${requestName}, ${acceptName}`, async () => {
        const [lane, yoga] = [
          await answerOf(withLane, payload, accept),
          await answerOf(yogaOnly, payload, accept),
        ];
        expect(lane).toEqual(yoga);
      });
    }
  }

  for (const accept of ['application/json', 'application/graphql-response+json']) {
    it(`a subscription over POST, Accept: ${accept}`, async () => {
      const [lane, yoga] = [
        await answerOf(withLane, SUBSCRIPTION, { accept }),
        await answerOf(yogaOnly, SUBSCRIPTION, { accept }),
      ];
      expect(lane).toEqual(yoga);
    });
  }

  it('the card answers with its data (the comparison above is not between two failures)', async () => {
    const { status, body } = await answerOf(withLane, REQUESTS['a store card'], {});
    expect(status).toBe(200);
    expect(JSON.parse(body).data.store).toMatchObject({
      domain: 'acme-apparel.com',
      monthlyVisits: 120_000,
    });
  });
});

describe('which requests the lane takes', () => {
  const lane = () => jsonLane(createGraphqlYoga(t.services, new PersistedOperations(schema)));
  const request = (body: unknown, headers: Record<string, string> = {}, method = 'POST') =>
    ({
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body,
    }) as unknown as FastifyRequest;
  const reply = { header: () => reply } as unknown as FastifyReply;

  it('takes a JSON query or mutation, and answers it', async () => {
    const run = lane();
    const card = await run(
      request({ query: CARD, variables: { domain: 'acme-apparel.com' } }),
      reply,
    );
    expect(card?.status).toBe(200);
    expect(JSON.parse(card!.body).data.store.domain).toBe('acme-apparel.com');
    const missing = await run(
      request({ query: CARD, variables: { domain: 'missing-store.com' } }),
      reply,
    );
    expect(JSON.parse(missing!.body).errors[0].extensions.code).toBe('not_found');
  });

  it('hands back, before anything ran, what Yoga must answer', async () => {
    const run = lane();
    const persisted = {
      extensions: { persistedQuery: { version: 1, sha256Hash: operationHash('{ __typename }') } },
    };
    for (const [body, headers, method] of [
      [{ query: '{ __typename }' }, {}, 'GET'],
      [persisted, {}, 'POST'],
      [[{ query: '{ __typename }' }], {}, 'POST'],
      [{ query: 'subscription { recentScrapes { id } }' }, {}, 'POST'],
      [{ query: '{ nope }' }, {}, 'POST'],
      [{ query: '{ __typename' }, {}, 'POST'],
      [{ query: '{ __typename }' }, { accept: 'text/event-stream' }, 'POST'],
      [{ query: '{ __typename }' }, { accept: 'multipart/mixed' }, 'POST'],
    ] as const) {
      expect(await run(request(body, headers, method), reply)).toBeUndefined();
    }
  });

  it('answers in the media type Yoga would choose, and leaves any other Accept to Yoga', () => {
    expect(jsonAnswerType(undefined)).toBe('application/json');
    expect(jsonAnswerType('*/*')).toBe('application/json');
    expect(jsonAnswerType('application/graphql-response+json, application/json')).toBe(
      'application/graphql-response+json',
    );
    expect(jsonAnswerType('application/json, application/graphql-response+json')).toBe(
      'application/json',
    );
    expect(jsonAnswerType('application/json; charset=utf-8')).toBe('application/json');
    expect(jsonAnswerType('application/json;q=0.9')).toBeUndefined();
    expect(jsonAnswerType('application/json; charset=latin1')).toBeUndefined();
    expect(jsonAnswerType('text/event-stream, application/json')).toBeUndefined();
    expect(jsonAnswerType('text/html')).toBeUndefined();
  });
});
