// The common GraphQL request (a POST of one JSON query or mutation that parses and validates, from a
// client that takes a JSON answer) run straight on Yoga's envelope, as REST runs its persisted
// operations: same caches, context, pipeline stages and error masking, without the Fetch API objects Yoga
// builds around each request. Anything else is handed back (undefined) before it runs, for Yoga.
import { getOperationAST, type DocumentNode, type ExecutionResult } from 'graphql';
import { processRegularResult } from 'graphql-yoga';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerFacingResult } from './errors.ts';
import type { GraphqlYoga } from './server-context.ts';

/** A JSON answer: what Yoga's regular result processor would have written. */
export interface JsonAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface JsonParams {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

const ANSWERABLE = new Set(['*/*', 'application/json', 'application/graphql-response+json']);

/**
 * The media type Yoga answers in for this Accept header, when every type it lists is one this lane
 * answers: Yoga takes the first listed type its JSON processor matches, `*\/*` meaning
 * application/json. Undefined (Yoga decides) for anything else, parameters other than utf-8 included.
 */
export function jsonAnswerType(accept: string | undefined): string | undefined {
  if (accept === undefined || accept === '') return 'application/json';
  let first: string | undefined;
  for (const entry of accept.replace(/\s/g, '').toLowerCase().split(',')) {
    const [type = '', ...params] = entry.split(';');
    if (!ANSWERABLE.has(type) || params.some((param) => param !== 'charset=utf-8'))
      return undefined;
    first ??= type;
  }
  return first === '*/*' ? 'application/json' : first;
}

/** What Yoga's own plugins read of the Fetch API request here: only its method (usePreventMutationViaGET) */
const LANE_REQUEST = { method: 'POST' } as Request;

const isString = (value: unknown): value is string => typeof value === 'string';
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The body when it is exactly a query with optional variables and operation name; otherwise Yoga checks it. */
function jsonParams(body: unknown): JsonParams | undefined {
  if (!isPlainObject(body) || !isString(body.query)) return undefined;
  for (const key in body) {
    const value = body[key];
    if (key === 'query') continue;
    if (key === 'variables' && (value == null || isPlainObject(value))) continue;
    if (key === 'operationName' && (value == null || isString(value))) continue;
    return undefined;
  }
  return body as unknown as JsonParams;
}

/** The answer Yoga's regular result processor writes, after the caller-facing error rewrite its onResultProcess hook applies. */
async function answerOf(
  result: ExecutionResult & { stringify?: (result: ExecutionResult) => string },
  yoga: GraphqlYoga,
  type: string,
): Promise<JsonAnswer> {
  // nothing for Yoga to strip or to turn into a status: its stringify of the same result
  if (!result.errors?.length && !result.extensions?.http) {
    return {
      status: 200,
      headers: { 'content-type': `${type}; charset=utf-8` },
      body: (result.stringify ?? JSON.stringify)(result),
    };
  }
  const response = processRegularResult(callerFacingResult(result), yoga.fetchAPI, type);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers, body: await response.text() };
}

/** Runs the request when it is this lane's kind; undefined, with nothing run or charged, when Yoga's handler must answer it. */
export function jsonLane(yoga: GraphqlYoga) {
  // Documents that validated once (the schema and the rules never change): Yoga's parse cache hands
  // back the same document for the same text, and its own validation cache builds a key from every
  // rule's name on each request
  const valid = new WeakSet<DocumentNode>();
  return async (req: FastifyRequest, reply: FastifyReply): Promise<JsonAnswer | undefined> => {
    if (req.method !== 'POST') return undefined;
    const type = jsonAnswerType(req.headers.accept);
    const params = type && jsonParams(req.body);
    if (!type || !params) return undefined;
    // the context Yoga's handler builds (handleParams): its plugins read the request's method (a
    // mutation over GET, an operation it cannot determine) and the params while parsing, and the
    // parse cache keeps what they made of a document for the other lane too
    const enveloped = yoga.getEnveloped({
      principal: req.principal,
      req,
      reply,
      request: LANE_REQUEST,
      params,
    });
    let document;
    try {
      document = enveloped.parse(params.query);
    } catch {
      return undefined;
    }
    // Yoga refuses a document whose operation it cannot determine (400) before running anything
    const operation = getOperationAST(document, params.operationName);
    if (!operation || operation.operation === 'subscription') return undefined;
    if (!valid.has(document)) {
      // armor's limits throw from validation rather than report
      try {
        if (enveloped.validate(enveloped.schema, document).length > 0) return undefined;
      } catch {
        return undefined;
      }
      valid.add(document);
    }
    const contextValue = await enveloped.contextFactory();
    const result = await enveloped.execute({
      schema: enveloped.schema,
      document,
      contextValue,
      variableValues: params.variables,
      operationName: params.operationName,
    });
    // a query or mutation without @defer/@stream (the schema has neither) answers once
    if (Symbol.asyncIterator in result)
      throw new Error('an operation answered with a stream in the JSON lane');
    return answerOf(result, yoga, type);
  };
}
