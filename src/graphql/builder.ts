// The one Pothos SchemaBuilder. Plugins: relay (Node interface, global IDs, connections with
// totalCount, offset cursors) and zod (argument validation → bad_request naming the parameter;
// synchronous: args-validation.ts).
// Features register their types on it, each through its face (src/<feature>/<feature>.schema.ts);
// src/gateway/schema.ts imports the faces and builds the schema.
import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import ZodPlugin from './args-validation.ts';
import type { GraphqlContext } from './context.ts';
import { apiErrorFromZod } from './validation-error.ts';
import { QUERY_COST_RULES } from './query-cost.ts';

export const builder = new SchemaBuilder<{
  Context: GraphqlContext;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    Date: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
  /** every connection resolver returns its total (see pagination.ts) */
  Connection: { totalCount: number; totalCountExact?: boolean };
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
}>({
  plugins: [RelayPlugin, ZodPlugin],
  defaultFieldNullability: false,
  relay: {
    // connections are non-null lists of non-null edges with non-null nodes
    edgesFieldOptions: {
      nullable: false,
      description: "The page's items in order, each with its cursor.",
    },
    nodeFieldOptions: { nullable: false, description: 'The item at this position of the list.' },
    cursorFieldOptions: {
      description:
        "This item's opaque cursor: pass it as `after` to read the items that follow it in this same list.",
    },
    pageInfoFieldOptions: {
      description:
        'Where this page sits in the list: its cursors and whether a further page exists.',
    },
    pageInfoTypeOptions: {
      description:
        'Position of one page in a forward-only list (Relay PageInfo): the cursors of its first and last items and whether more pages follow.',
    },
    startCursorFieldOptions: {
      description: "The first item's cursor; null when the page is empty.",
    },
    endCursorFieldOptions: {
      description:
        "The last item's cursor, to pass as `after` for the next page; null when the page is empty.",
    },
    hasPreviousPageFieldOptions: {
      description:
        'True when items come before this page (it was read with `after`). Paging is forward-only: there is no `before`/`last` to read them backwards.',
    },
    nodeTypeOptions: {
      description:
        'An entity with a global id: any id it returns can be read back with node(id:) or nodes(ids:), and clients may cache entities by it.',
    },
    idFieldOptions: {
      description:
        'Global id: opaque, stable across requests; the argument node(id:) and nodes(ids:) take.',
    },
    nodeQueryOptions: {
      description:
        'The entity with this global id, of any type that implements Node; null when no entity has it.',
      args: {
        id: { description: 'A global id read from an entity (Store.id, App.id, Product.id).' },
      },
    },
    nodesQueryOptions: {
      description:
        'The entities with these global ids, in the order asked; an id that names nothing answers null in its place. Charged one request per id.',
      args: {
        ids: { description: 'Global ids read from entities (Store.id, App.id, Product.id).' },
      },
    },
    nodesOnConnection: {
      description:
        "The page's items in order (each edge's node), for clients that need no per-item cursor.",
    },
    hasNextPageFieldOptions: {
      description:
        "True when a further page exists that the caller may read: false on the last page, and at the edge of the plan's result window.",
    },
  },
  zod: {
    validationError: (error) => apiErrorFromZod(error),
  },
});

builder.globalConnectionFields((t) => ({
  totalCount: t.int({
    description: 'Number of items across all pages (see totalCountExact).',
    resolve: (connection) => connection.totalCount,
  }),
  totalCountExact: t.boolean({
    description:
      'False when totalCount is an estimate (broad filters past 10,000 matches, wide text searches): it may then be lower or higher than the items paging yields; page while pageInfo.hasNextPage is true. Always true for the filters whose totals the catalog keeps counted (see Query.stores).',
    resolve: (connection) => connection.totalCountExact ?? true,
  }),
}));

builder.queryType({
  description: `Store intelligence: stores, products, apps, changes and market analytics. A lookup by key (store, app, product, scrapeRequest, signal, node) answers null with not_found at its path when there is nothing to find; the other fields of the operation keep their data. Each root field is charged as one request to its quota bucket (node/nodes: one per id), as REST charges its route; the answer's extensions.quota says what the operation was charged and what each limit has left. ${QUERY_COST_RULES}`,
});
builder.mutationType({
  description:
    "Writes, each scoped to the key's account: scrape requests (requestScrape, requestScrapesBulk), Signals watches and their probes (createSignal, updateSignal, stopSignal, deleteSignal, probeSignal, probeSignalAds) and saved-search alerts (createAlert, deleteAlert); and API key management (mintApiKey, revokeApiKey), the web app's service credential only.",
});
builder.subscriptionType({
  description:
    "Live events: one scrape request's status (scrapeStatus), the account's recent scrapes (recentScrapes) and the crawler's status (crawlerStatus).",
});
