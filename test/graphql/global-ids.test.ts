// One id strategy (issue 32 item 5): every entity with an identity implements Node with a global
// id that node(id:) and nodes(ids:) resolve, with the access rules of its root field (another
// account's watch, alert, insight, probe, ad or scrape request is null; an API key asking for a
// key is refused as apiKeys refuses it). The record's own number or UUID stays readable under a named field, which REST
// keeps showing as `id`. Apollo Client's InMemoryCache normalises each of them without keyFields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { startSignalsHarness, type SignalsHarness } from '../signals/support/signals-harness.ts';

const SERVICE_TOKEN = 'a-web-app-service-token-of-at-least-32-characters';
let h: SignalsHarness;
let base: string;
let alice: string;
let bob: string;

/** Global ids Relay-style: base64 of "Type:raw id" (what Pothos writes). */
const globalId = (type: string, raw: string | number) =>
  Buffer.from(`${type}:${raw}`).toString('base64');

async function graphql(
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...headers,
    },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: any; errors?: any[] };
}

const as = (key: string) => ({ authorization: `Bearer ${key}` });

async function data(query: string, variables: Record<string, unknown>, key: string) {
  const answer = await graphql(query, variables, as(key));
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  return answer.data;
}

/** The ids of alice's records, read through their own lists. */
let ids: Record<string, { id: string; raw: string | number }>;

beforeAll(async () => {
  h = await startSignalsHarness({ env: { WEB_APP_SERVICE_TOKEN: SERVICE_TOKEN } });
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  const storeId = await h.addStore('stock.test', [
    { handle: 'tee', title: 'Tee', price: 20, bestSellerRank: 1 },
  ]);
  alice = await h.mintKey({ account: 'alice' });
  bob = await h.mintKey({ account: 'bob' });
  expect(
    (await h.request('POST', '/v1/signals', { key: alice, body: { domain: 'stock.test' } })).status,
  ).toBe(201);
  await h.waitForProbe('stock.test', alice);
  const pool = h.services.db.pool;
  const {
    rows: [signal],
  } = await pool.query<{ id: number; account_id: number }>(
    'SELECT id, account_id FROM signals WHERE store_id = $1',
    [storeId],
  );
  await pool.query(
    `INSERT INTO insights (signal_id, account_id, kind, title, body, data, created_at)
     VALUES ($1, $2, 'restock', 'Tee restocked', 'Stock rose by 5', '{"units": 5, "variant": "tee-s"}', $3)`,
    [signal!.id, signal!.account_id, h.clock.now()],
  );
  await pool.query(
    `INSERT INTO ads (store_id, network, external_id, headline, first_seen_at, last_seen_at)
     VALUES ($1, 'meta', 'meta-1', 'Summer tees', now(), now())`,
    [storeId],
  );
  await pool.query(
    `INSERT INTO change_records (store_id, entity, change_type, subject, summary, old_value, new_value, change_pct, detected_at)
     VALUES ($1, 'store', 'revenue_band_changed', NULL, 'Modeled revenue band rose', '1000-5000', '5000-10000', 100, $2)`,
    [storeId, h.clock.now()],
  );

  const {
    signal: read,
    signalInsights,
    changes,
    alert,
    scrape,
  } = await data(
    `mutation {
      alert: createAlert(name: "Tees", filter: { q: "tee" }) { id alertId }
      scrape: requestScrape(domain: "unlisted-shop.test") { scrape { id scrapeRequestId } }
    }`,
    {},
    alice,
  ).then(async (written) => ({
    ...written,
    ...(await data(
      `{
        signal(domain: "stock.test") {
          id
          probe { id probeId }
          ads { nodes { id adId } }
        }
        signalInsights { nodes { id insightId data } }
        changes(filter: { domain: "stock.test" }) { nodes { id changeId changeType } }
      }`,
      {},
      alice,
    )),
  }));
  expect(signalInsights.nodes[0].data).toEqual({ units: 5, variant: 'tee-s' });
  expect(changes.nodes[0].changeType).toBe('REVENUE_BAND_CHANGED');
  ids = {
    Signal: { id: read.id, raw: signal!.id },
    SignalProbe: { id: read.probe.id, raw: read.probe.probeId },
    SignalAd: { id: read.ads.nodes[0].id, raw: read.ads.nodes[0].adId },
    Insight: { id: signalInsights.nodes[0].id, raw: signalInsights.nodes[0].insightId },
    Change: { id: changes.nodes[0].id, raw: changes.nodes[0].changeId },
    Alert: { id: alert.id, raw: alert.alertId },
    ScrapeRequest: { id: scrape.scrape.id, raw: scrape.scrape.scrapeRequestId },
  };
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('global ids', () => {
  it('gives every entity a global id built from its own id, beside the raw one', () => {
    for (const [type, { id, raw }] of Object.entries(ids))
      expect(id, type).toBe(globalId(type, raw));
  });

  it('resolves each through node(id) and nodes(ids) for the account that owns it', async () => {
    const all = Object.entries(ids);
    const { nodes } = await data(
      'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }',
      { ids: all.map(([, { id }]) => id) },
      alice,
    );
    expect(nodes).toEqual(all.map(([type, { id }]) => ({ __typename: type, id })));
    for (const [type, { id }] of all) {
      const { node } = await data(
        'query($id: ID!) { node(id: $id) { __typename id } }',
        { id },
        alice,
      );
      expect(node, type).toEqual({ __typename: type, id });
    }
  });

  it("answers null for another account's watch, probe, ad, insight, alert and scrape request", async () => {
    const owned = ['Signal', 'SignalProbe', 'SignalAd', 'Insight', 'Alert', 'ScrapeRequest'];
    const { nodes } = await data(
      'query($ids: [ID!]!) { nodes(ids: $ids) { id } }',
      { ids: owned.map((type) => ids[type]!.id) },
      bob,
    );
    expect(nodes).toEqual(owned.map(() => null));
    // the catalog's change feed is everyone's
    const { node } = await data(
      'query($id: ID!) { node(id: $id) { id } }',
      { id: ids.Change!.id },
      bob,
    );
    expect(node).toEqual({ id: ids.Change!.id });
  });

  it('lets a partner key read the watch it reads by domain', async () => {
    const partner = await h.mintKey({ account: 'partner', scopes: ['signals:read'] });
    const { node } = await data(
      'query($id: ID!) { node(id: $id) { ... on Signal { domain } } }',
      { id: ids.Signal!.id },
      partner,
    );
    expect(node).toEqual({ domain: 'stock.test' });
  });

  it("reads an API key through node(id) for the web app's credential only", async () => {
    const { apiKeys } = (
      await graphql(
        '{ apiKeys(accountExternalId: "alice") { id apiKeyId prefix } }',
        {},
        { 'x-service-token': SERVICE_TOKEN },
      )
    ).data;
    const [key] = apiKeys;
    expect(key.id).toBe(globalId('ApiKey', key.apiKeyId));
    const byWebApp = await graphql(
      'query($id: ID!) { node(id: $id) { ... on ApiKey { prefix } } }',
      { id: key.id },
      { 'x-service-token': SERVICE_TOKEN },
    );
    expect(byWebApp.errors).toBeUndefined();
    expect(byWebApp.data).toEqual({ node: { prefix: key.prefix } });
    // as apiKeys refuses an API key, so does node(id) of a key
    const byKey = await graphql(
      'query($id: ID!) { node(id: $id) { id } }',
      { id: key.id },
      as(alice),
    );
    expect(byKey.errors?.[0].extensions).toMatchObject({
      code: 'unauthorized',
      details: { reason: 'scope' },
    });
  });

  it('keeps REST showing the raw ids', async () => {
    const insights = await h.request('GET', '/v1/signals/stock.test/insights', { key: alice });
    expect(insights.body.data[0].id).toBe(ids.Insight!.raw);
    const scrape = await h.request('GET', `/v1/scrapes/${ids.ScrapeRequest!.raw}`, { key: alice });
    expect(scrape.body.id).toBe(ids.ScrapeRequest!.raw);
    const alert = await h.request('GET', '/v1/alerts', { key: alice });
    expect(alert.body.data[0].id).toBe(ids.Alert!.raw);
  });
});

describe("Apollo Client's InMemoryCache", () => {
  it('normalises a watch and its records by __typename and id, without keyFields', async () => {
    const client = new ApolloClient({
      cache: new InMemoryCache(),
      link: new HttpLink({ uri: `${base}/graphql`, headers: as(alice) }),
    });
    const list = gql`
      query Watches {
        signals {
          nodes {
            id
            status
            probe {
              id
              status
            }
          }
        }
      }
    `;
    const one = gql`
      query Watch {
        signal(domain: "stock.test") {
          id
          status
        }
      }
    `;
    await client.query({ query: list });
    await client.query({ query: one });
    const cache = client.cache.extract() as Record<string, any>;
    // one entry per entity, the lists and the lookup pointing at it
    expect(cache[`Signal:${ids.Signal!.id}`]).toMatchObject({
      __typename: 'Signal',
      status: 'TRACKED',
    });
    expect(cache[`SignalProbe:${ids.SignalProbe!.id}`]).toMatchObject({
      __typename: 'SignalProbe',
    });
    expect(cache.ROOT_QUERY['signal({"domain":"stock.test"})']).toEqual({
      __ref: `Signal:${ids.Signal!.id}`,
    });

    // a mutation's answer updates the list a component already shows
    await client.mutate({
      mutation: gql`
        mutation {
          stopSignal(domain: "stock.test") {
            id
            status
          }
        }
      `,
    });
    const cached = client.readQuery({ query: list }) as any;
    expect(cached.signals.nodes[0].status).toBe('PAUSED');
    await h.request('PATCH', '/v1/signals/stock.test', { key: alice, body: { status: 'tracked' } });
  });
});
