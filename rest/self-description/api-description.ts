// The OpenAPI description read back as a list of routes (in table order) for the text documents,
// so docs.md and llms.txt say exactly what /v1/openapi.json says.
import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ResponseObject,
} from 'openapi3-ts/oas31';
import { buildOpenApiDocument } from '../openapi/document.ts';

export interface DescribedRoute {
  method: string;
  path: string;
  tag: string;
  operation: OperationObject;
  parameters: ParameterObject[];
  responses: Array<{ status: string; response: ResponseObject }>;
}

export function describedRoutes(
  document: OpenAPIObject = buildOpenApiDocument(),
): DescribedRoute[] {
  const tagOrder = (document.tags ?? []).map((tag) => tag.name);
  const routes = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    (['get', 'post', 'patch', 'delete'] as const).flatMap((method) => {
      const operation = item[method];
      if (!operation) return [];
      return [
        {
          method: method.toUpperCase(),
          path,
          tag: operation.tags?.[0] ?? '',
          operation,
          parameters: (operation.parameters ?? []) as ParameterObject[],
          responses: Object.entries(operation.responses ?? {}).map(([status, response]) => ({
            status,
            response: response as ResponseObject,
          })),
        },
      ];
    }),
  );
  // stable: within a tag, the order of registration (the route table's order)
  return routes.sort((a, b) => tagOrder.indexOf(a.tag) - tagOrder.indexOf(b.tag));
}

export const isOpen = (route: DescribedRoute) =>
  Array.isArray(route.operation.security) && route.operation.security.length === 0;
