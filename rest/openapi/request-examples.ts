// Each operation's parameter examples are its route's documented example request (route.example),
// and only that, and its success answer's example is the answer to that request on a fresh install
// (the seeded catalog, its demo storefronts and the job worker): the /docs console fills its "try
// it" form from them, so the request it sends is the one docs.md shows, whose answer is real data.
// A parameter the example does not set has no example (a form filled with every parameter's own
// example asks for a combination no store matches, e.g. the same apps in app and notApp).
import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  RequestBodyObject,
  ResponseObject,
  SchemaObject,
} from 'openapi3-ts/oas31';
import type { RestRoute } from '../route.ts';

/** The path and query values of a route's example request, by parameter name. */
export function exampleValues(route: RestRoute): {
  path: Map<string, string>;
  query: Map<string, string>;
} {
  const url = new URL(route.example.split(' ')[0]!, 'http://example.invalid');
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const pattern = new RegExp(`^${route.path.replace(/\{\w+\}/g, '([^/]+)')}$`);
  const values = pattern.exec(url.pathname)?.slice(1) ?? [];
  return {
    path: new Map(names.map((name, index) => [name, decodeURIComponent(values[index] ?? '')])),
    query: new Map(url.searchParams),
  };
}

/** A query value as its schema's type: limit=5 is the integer 5. */
function typed(value: string, schema: SchemaObject | undefined): unknown {
  if (
    (schema?.type === 'integer' || schema?.type === 'number') &&
    value.trim() !== '' &&
    Number.isFinite(Number(value))
  )
    return Number(value);
  if (schema?.type === 'boolean' && (value === 'true' || value === 'false'))
    return value === 'true';
  return value;
}

/** The JSON body of a POST or PATCH route's example (`/v1/scrapes {"domain":"…"}`), if it has one. */
export function exampleBody(route: RestRoute): unknown {
  const space = route.example.indexOf(' ');
  return space < 0 ? undefined : JSON.parse(route.example.slice(space + 1));
}

/** An example path value that names what an earlier answer gives (`/v1/scrapes/{id}`), not a value. */
export const isPlaceholder = (value: string): boolean => /^\{\w+\}$/.test(value);

/** The status a route answers `body` with: 202 for a queued scrape, 201 for a created watch, … */
export const statusOfAnswer = (route: RestRoute, body: unknown): number =>
  route.status?.(body as never) ?? 200;

type Operations = Record<string, OperationObject>;

/** Every operation of the description with its path and method. */
export function operationsOf(
  document: OpenAPIObject,
): Array<{ path: string; method: string; operation: OperationObject }> {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Operations)
      .filter(([, operation]) => typeof operation === 'object' && 'responses' in operation)
      .map(([method, operation]) => ({ path, method, operation })),
  );
}

export function applyRequestExamples(
  document: OpenAPIObject,
  routes: readonly RestRoute[],
  responses: Readonly<Record<string, unknown>>,
): void {
  for (const route of routes) {
    const operation = (
      document.paths?.[route.path] as Record<string, OperationObject> | undefined
    )?.[route.method.toLowerCase()];
    if (!operation) continue;
    const { path, query } = exampleValues(route);
    const answer = responses[route.operationId] as Record<string, unknown> | undefined;
    for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
      let value = (parameter.in === 'path' ? path : query).get(parameter.name);
      // {id} of GET /v1/scrapes/{id}: the id of the scrape its recorded answer is about (the one
      // POST /v1/scrapes's example answer queued)
      if (value !== undefined && isPlaceholder(value) && answer?.[parameter.name] !== undefined)
        value = String(answer[parameter.name]);
      const schema = parameter.schema as SchemaObject | undefined;
      if (schema) delete schema.example;
      if (value === undefined) delete parameter.example;
      else parameter.example = typed(value, schema);
    }
    const body = exampleBody(route);
    const requestJson = (operation.requestBody as RequestBodyObject | undefined)?.content[
      'application/json'
    ];
    if (requestJson && body !== undefined) requestJson.example = body;
  }
  applyAnswerExamples(document, routes, responses);
}

/**
 * Each recorded answer (response-examples.json, test/rest/response-examples.test.ts) as the example
 * of the response it is: the status its route answers it with, JSON, or else the one media type of
 * a discovery document (llms.txt and docs.md are recorded as their opening lines). A key
 * `operationId:status` holds the answer of another success status of the same request (POST
 * /v1/scrapes sent again once the store is in: 200 already_exists), so no success status shows a
 * placeholder.
 */
function applyAnswerExamples(
  document: OpenAPIObject,
  routes: readonly RestRoute[],
  responses: Readonly<Record<string, unknown>>,
): void {
  const answers = Object.entries(responses).map(([key, body]) => {
    const [id, status] = key.split(':');
    return { id: id!, status: status === undefined ? undefined : Number(status), body };
  });
  for (const { operation } of operationsOf(document)) {
    const id = operation.operationId;
    // an operation described beside its route (the screenshot's): its path values' examples are
    // where the /docs console looks for them, on the parameter
    for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
      const schema = parameter.schema as SchemaObject | undefined;
      if (parameter.in !== 'path' || parameter.example !== undefined || !schema?.example) continue;
      parameter.example = schema.example;
      delete schema.example;
    }
    const route = routes.find((r) => r.operationId === id);
    for (const answer of answers.filter((a) => a.id === id)) {
      const status = answer.status ?? (route ? statusOfAnswer(route, answer.body) : 200);
      const content = (operation.responses?.[String(status)] as ResponseObject | undefined)
        ?.content;
      const media = content?.['application/json'] ?? Object.values(content ?? {})[0];
      if (media) media.example = answer.body;
    }
  }
}
