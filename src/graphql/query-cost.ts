// One cost model for every GraphQL operation (HTTP, WebSocket, SSE and REST's persisted ones),
// worked out after the variables are applied, so a page size costs the same as a literal or a
// variable: each field costs 1, and a field's selection counts once per item it may return (its
// `first`, or the default page size of a connection). The cost comes back in `extensions.cost`; an
// operation over the limit is refused before it runs, with bad_request naming its cost.
import { getNamedType, GraphQLObjectType, type DocumentNode, type GraphQLField } from 'graphql';
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
  return type instanceof GraphQLObjectType && type.name.endsWith('Connection') && 'edges' in type.getFields();
};

const pageSizeEstimator: ComplexityEstimator = ({ args, childComplexity, field }) => {
  const first = typeof args.first === 'number' && args.first > 0 ? args.first : undefined;
  const items = first ?? (isConnection(field) ? DEFAULT_PAGE_SIZE : 1);
  return 1 + items * childComplexity;
};

/** The operation's cost with these variables, or undefined when they do not coerce (execution then reports why). */
export function queryCost(schema: Parameters<typeof getComplexity>[0]['schema'], document: DocumentNode, variables: Record<string, unknown> | undefined, operationName?: string | null): number | undefined {
  try {
    return getComplexity({ schema, query: document, variables: variables ?? {}, operationName: operationName ?? undefined, estimators: [pageSizeEstimator] });
  } catch {
    return undefined;
  }
}

export const tooCostly = (cost: number) =>
  new ApiError(
    'bad_request',
    `Query cost ${cost} exceeds the limit of ${MAX_QUERY_COST}: ask for smaller pages (first) or fewer nested lists.`,
    { parameter: 'query', rule: `cost at most ${MAX_QUERY_COST}`, cost, limit: MAX_QUERY_COST },
  );

/** Refuses an operation over the limit before it runs and writes the cost of the others into `extensions.cost`. */
export function queryCostPlugin(): Plugin {
  const check = (args: { schema: any; document: DocumentNode; variableValues?: any; operationName?: string | null }) =>
    queryCost(args.schema, args.document, args.variableValues ?? undefined, args.operationName);
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
          setResult({ ...result, extensions: { ...result.extensions, cost: { requested: cost, limit: MAX_QUERY_COST } } });
        },
      };
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const cost = check(args);
      if (cost !== undefined && cost > MAX_QUERY_COST) setResultAndStopExecution({ errors: [tooCostly(cost)] });
    },
  };
}
