// One cost model for every GraphQL operation (HTTP, WebSocket, SSE and REST's persisted ones),
// worked out after the variables are applied, so a page size costs the same as a literal or a
// variable: each field costs 1, and a field's selection counts once per item it may return (its
// `first`, or the default page size of a connection). The cost comes back in `extensions.cost`; an
// operation over the limit is refused before it runs, with bad_request naming its cost.
import {
  getNamedType,
  getOperationAST,
  GraphQLObjectType,
  Kind,
  type DocumentNode,
  type GraphQLField,
  type GraphQLSchema,
  type TypeNode,
} from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import type { Plugin } from 'graphql-yoga';
import { ApiError } from '../platform/errors.ts';
import { DEFAULT_PAGE_SIZE } from './pagination.ts';

export const MAX_QUERY_COST = 20_000;

/** The model in a sentence or two, for the schema's description and docs.md. */
export const QUERY_COST_RULES =
  `Every operation has a cost, worked out after its variables are applied: each field costs 1, and the selection of a list ` +
  `field counts once per item it may return (its \`first\`, or ${DEFAULT_PAGE_SIZE} when a connection is asked without one). ` +
  `An operation costing more than ${MAX_QUERY_COST.toLocaleString('en-US')} is refused before it runs with bad_request ` +
  `(details: parameter "query", cost, limit); every answer carries its cost in \`extensions.cost\` {requested, limit}.`;

const isConnection = (field: GraphQLField<unknown, unknown>) => {
  const type = getNamedType(field.type);
  return (
    type instanceof GraphQLObjectType &&
    type.name.endsWith('Connection') &&
    'edges' in type.getFields()
  );
};

const pageSizeEstimator: ComplexityEstimator = ({ args, childComplexity, field }) => {
  const first = typeof args.first === 'number' && args.first > 0 ? args.first : undefined;
  const items = first ?? (isConnection(field) ? DEFAULT_PAGE_SIZE : 1);
  return 1 + items * childComplexity;
};

const namedTypeOf = (type: TypeNode): string =>
  type.kind === Kind.NAMED_TYPE ? type.name.value : namedTypeOf(type.type);

/**
 * What the cost of this operation can depend on: its name and the values of its Int variables (page
 * sizes) and Boolean ones (@skip/@include); other variables never change it. Undefined: no operation.
 */
function costKey(
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName?: string | null,
): string | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation) return undefined;
  let key = operation.name?.value ?? '';
  for (const definition of operation.variableDefinitions ?? []) {
    const type = namedTypeOf(definition.type);
    if (type === 'Int' || type === 'Boolean')
      key += `|${JSON.stringify(variables?.[definition.variable.name.value] ?? null)}`;
  }
  return key;
}

/** Worked-out costs by document and costKey: a persisted operation or a client's repeated query is priced once per page size. */
const known = new WeakMap<DocumentNode, Map<string, number>>();
const KNOWN_PER_DOCUMENT = 64;

/** The operation's cost with these variables, or undefined when they do not coerce (execution then reports why). */
export function queryCost(
  schema: Parameters<typeof getComplexity>[0]['schema'],
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName?: string | null,
): number | undefined {
  const key = costKey(document, variables, operationName);
  const costs = known.get(document);
  const cached = key === undefined ? undefined : costs?.get(key);
  if (cached !== undefined) return cached;
  let cost: number;
  try {
    cost = getComplexity({
      schema,
      query: document,
      variables: variables ?? {},
      operationName: operationName ?? undefined,
      estimators: [pageSizeEstimator],
    });
  } catch {
    return undefined;
  }
  if (key !== undefined) {
    const map = costs ?? new Map<string, number>();
    if (map.size >= KNOWN_PER_DOCUMENT) map.clear();
    map.set(key, cost);
    if (!costs) known.set(document, map);
  }
  return cost;
}

export const tooCostly = (cost: number) =>
  new ApiError(
    'bad_request',
    `Query cost ${cost} exceeds the limit of ${MAX_QUERY_COST}: ask for smaller pages (first) or fewer nested lists.`,
    { parameter: 'query', rule: `cost at most ${MAX_QUERY_COST}`, cost, limit: MAX_QUERY_COST },
  );

/** Refuses an operation over the limit before it runs and writes the cost of the others into `extensions.cost`. */
export function queryCostPlugin(): Plugin {
  // envelop types its execution args as any; at run time they are graphql-js's ExecutionArgs
  const check = (args: {
    schema: GraphQLSchema;
    document: DocumentNode;
    variableValues?: Record<string, unknown> | null;
    operationName?: string | null;
  }) => queryCost(args.schema, args.document, args.variableValues ?? undefined, args.operationName);
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const cost = check(args);
      if (cost === undefined) return;
      if (cost > MAX_QUERY_COST) {
        setResultAndStopExecution({ errors: [tooCostly(cost)] });
        return;
      }
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          setResult({
            ...result,
            extensions: { ...result.extensions, cost: { requested: cost, limit: MAX_QUERY_COST } },
          });
        },
      };
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const cost = check(args);
      if (cost !== undefined && cost > MAX_QUERY_COST)
        setResultAndStopExecution({ errors: [tooCostly(cost)] });
    },
  };
}
