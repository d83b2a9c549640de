// llms.txt: the agent brief (llmstxt.org layout): the usage rules, auth, paging and errors in a
// few lines, then every route with its parameters. Rendered from the same OpenAPI description.
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { API_SUMMARY, buildOpenApiDocument } from '../openapi/document.ts';
import { ERROR_CODES, HTTP_STATUS } from '../../src/platform/errors.ts';
import { describedRoutes } from './api-description.ts';
import { DECISIONS } from '../openapi/decisions.ts';
import { EXAMPLES } from './examples.ts';
import { SELF_DESCRIPTION_LINKS } from './root.ts';
import { AUTH_RULE, PAGINATION_RULE, USAGE_RULES } from '../openapi/usage-rules.ts';

export function renderLlmsTxt(document: OpenAPIObject = buildOpenApiDocument()): string {
  const routes = describedRoutes(document).map((route) => {
    const params = route.parameters
      .filter((p) => p.in === 'query')
      .map((p) => (p.required ? `${p.name}*` : p.name));
    const query = params.length > 0 ? ` ? ${params.join(', ')}` : '';
    return `- ${route.method} ${route.path}${query}: ${route.operation.summary}`;
  });
  const errors = [...ERROR_CODES]
    .sort((a, b) => HTTP_STATUS[a] - HTTP_STATUS[b])
    .map((code) => `${code} ${HTTP_STATUS[code]}`)
    .join(', ');

  return `${[
    `# ${document.info.title}`,
    `> ${API_SUMMARY} REST/JSON under /v1 (this brief), GraphQL at /graphql. Paths are relative to the host serving this file.`,
    '## Rules',
    USAGE_RULES.map((rule, index) => `${index + 1}. ${rule}`).join('\n'),
    '## Auth',
    AUTH_RULE,
    '## Paging',
    PAGINATION_RULE,
    '## Errors',
    `\`{"error": {"code", "message", "details"}}\`; codes and HTTP statuses: ${errors}. bad_request details are ` +
      '`{parameter, rule}`; fix that parameter. On 429 wait Retry-After seconds. Empty results are not errors.',
    '## Routes (? query parameters, * = required)',
    routes.join('\n'),
    '## Decisions',
    DECISIONS.map((d) => `- ${d.topic}: ${d.decision}`).join('\n'),
    '## Docs',
    [
      `- [Reference](${SELF_DESCRIPTION_LINKS.docs}): every route, parameter, default, limit, response shape and error`,
      `- [HTML reference](${SELF_DESCRIPTION_LINKS.reference}): the same, to read in a browser`,
      `- [MCP](${SELF_DESCRIPTION_LINKS.mcp}): Model Context Protocol over Streamable HTTP (POST), one tool per data route, the same key header`,
      `- [OpenAPI 3.1](${SELF_DESCRIPTION_LINKS.openapi}): the machine-readable description`,
      `- [Workflow recipes](${SELF_DESCRIPTION_LINKS.examples}): ${EXAMPLES.workflows.map((workflow) => workflow.title.toLowerCase()).join('; ')}`,
    ].join('\n'),
  ].join('\n\n')}\n`;
}
