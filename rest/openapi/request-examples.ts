// Each operation's parameter examples are its route's documented example request (route.example),
// and only that, and its 200 answer's example is the answer to that request on the seeded catalog: the /docs console fills its "try it" form from them, so the request it sends is
// the one docs.md shows, whose answer is real data on the seeded catalog. A parameter the example
// does not set has no example (a form filled with every parameter's own example asks for a
// combination no store matches, e.g. the same apps in app and notApp).
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
    for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
      const value = (parameter.in === 'path' ? path : query).get(parameter.name);
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
    // the answer to that request on the seeded catalog (response-examples.json, test/rest/response-examples.test.ts)
    const responseJson = (operation.responses?.['200'] as ResponseObject | undefined)?.content?.[
      'application/json'
    ];
    if (responseJson && route.operationId in responses)
      responseJson.example = responses[route.operationId];
  }
}
