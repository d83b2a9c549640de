// docs.md: the reference in Markdown, rendered from the OpenAPI description (itself generated
// from the route table) plus the texts of this folder. Served at /v1/docs.md and written to the
// repository top level by `npm run codegen`.
import type {
  OpenAPIObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from 'openapi3-ts/oas31';
import { buildOpenApiDocument } from '../openapi/document.ts';
import { errorDescription } from '../openapi/error-responses.ts';
import { RATE_LIMIT_HEADERS } from '../openapi/rate-limit-headers.ts';
import { TAGS } from '../route.ts';
import { ERROR_CODES, HTTP_STATUS, REASONS, type ErrorReason } from '../../src/platform/errors.ts';
import { describedRoutes, isOpen, type DescribedRoute } from './api-description.ts';
import { CRAWLER_SECTION } from './crawler-section.ts';
import { DECISIONS } from '../openapi/decisions.ts';
import { EXAMPLES } from './examples.ts';
import {
  constraintText,
  defaultText,
  descriptionOf,
  isRef,
  refName,
  typeText,
  type Schema,
} from './schema-text.ts';
import { AUTH_RULE, PAGINATION_RULE, USAGE_RULES } from '../openapi/usage-rules.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

export function renderDocsMarkdown(document: OpenAPIObject = buildOpenApiDocument()): string {
  const routes = describedRoutes(document);
  const sections = [
    `# ${document.info.title} reference (v1)`,
    `Generated from the route table by \`npm run codegen\`; served at /v1/docs.md. The same description as ` +
      'OpenAPI 3.1 is /v1/openapi.json (read in a browser at /docs); workflow recipes are /v1/examples. Paths are relative to the host serving ' +
      'this document.',
    '## Usage rules',
    USAGE_RULES.map((rule, index) => `${index + 1}. ${rule}`).join('\n'),
    '## Authentication',
    AUTH_RULE,
    '## Pagination',
    PAGINATION_RULE,
    '## Errors',
    'Every error is `{"error": {"code", "message", "details"}}`, and `code` is always one of the six below.',
    table(
      ['Code', 'HTTP status', 'Meaning'],
      [...ERROR_CODES]
        .sort((a, b) => HTTP_STATUS[a] - HTTP_STATUS[b])
        .map((code) => [`\`${code}\``, String(HTTP_STATUS[code]), errorDescription(code)]),
    ),
    'A few cases answer another status with one of those codes; `details.reason` names the case:',
    table(
      ['details.reason', 'Code', 'HTTP status', 'Meaning'],
      (Object.keys(REASONS) as ErrorReason[]).map((reason) => [
        `\`${reason}\``,
        `\`${REASONS[reason].code}\``,
        String(REASONS[reason].status),
        errorDescription(reason),
      ]),
    ),
    '## Rate limits',
    'Data routes carry these headers; discovery routes are not rate limited. HTTP 429 (`rate_limited`) adds ' +
      '`Retry-After`: wait that many seconds, then retry.',
    table(
      ['Header', 'Meaning'],
      Object.entries(RATE_LIMIT_HEADERS).map(([name, header]) => [
        `\`${name}\``,
        header.description,
      ]),
    ),
    '## Decisions where the contract is open',
    DECISIONS.map((d) => `- **${d.topic}**: ${d.decision}`).join('\n'),
    '## Crawler',
    CRAWLER_SECTION,
    '## Routes',
    table(
      ['Method', 'Path', 'Summary'],
      routes.map((route) => [route.method, `\`${route.path}\``, route.operation.summary ?? '']),
    ),
    ...Object.keys(TAGS).flatMap((tag) =>
      tagSection(
        tag,
        routes.filter((route) => route.tag === tag),
      ),
    ),
    '## Workflows',
    EXAMPLES.workflows
      .map(
        (workflow) =>
          `### ${workflow.title}\n\n` +
          workflow.steps
            .map(
              (step, i) =>
                `${i + 1}. \`${step.method} ${step.path}\`: ${step.purpose} ${step.next}`,
            )
            .join('\n'),
      )
      .join('\n\n'),
    '## Shapes',
    shapes(document),
  ];
  return `${sections.join('\n\n')}\n`;
}

function tagSection(tag: string, routes: DescribedRoute[]): string[] {
  if (routes.length === 0) return [];
  return [`### ${tag}`, TAGS[tag as keyof typeof TAGS], ...routes.map(routeSection)];
}

function routeSection(route: DescribedRoute): string {
  const { operation } = route;
  const lines = [`#### ${route.method} ${route.path}`, `${operation.summary}.`];
  if (operation.description) lines.push(operation.description);
  lines.push(
    isOpen(route)
      ? 'Open: no key, not rate limited.'
      : 'Needs a key (Authorization: Bearer or X-Api-Key).',
  );
  if (route.parameters.length > 0) {
    lines.push(
      table(
        ['Parameter', 'In', 'Type', 'Required', 'Default', 'Limits', 'Description'],
        route.parameters.map((p) => [
          `\`${p.name}\``,
          p.in,
          typeText(p.schema),
          p.required ? 'yes' : 'no',
          defaultText(p.schema),
          constraintText(p.schema),
          p.description ?? descriptionOf(p.schema),
        ]),
      ),
    );
  } else if (!isOpen(route)) {
    lines.push('No parameters; any query parameter is a bad_request.');
  }
  lines.push(
    route.responses
      .map(({ status, response }) => `- **${status}** ${responseText(status, response)}`)
      .join('\n'),
  );
  return lines.join('\n\n');
}

function responseText(status: string, response: ResponseObject): string {
  const [mediaType, media] = Object.entries(response.content ?? {})[0] ?? [];
  const body = media?.schema ? `\`${typeText(media.schema as Schema)}\`` : '';
  if (status.startsWith('2'))
    return [body && `${body} (${mediaType})`, response.description].filter(Boolean).join(': ');
  return response.description ?? '';
}

function shapes(document: OpenAPIObject): string {
  const schemas = document.components?.schemas ?? {};
  return Object.keys(schemas)
    .filter((name) => !name.startsWith('Error_'))
    .sort()
    .map((name) => shape(name, schemas[name] as SchemaObject | ReferenceObject))
    .join('\n\n');
}

function shape(name: string, schema: SchemaObject | ReferenceObject): string {
  const lines = [`### ${name}`];
  if (isRef(schema)) return `${lines[0]}\n\nSame as ${refName(schema)}.`;
  if (schema.description) lines.push(schema.description);
  if (schema.properties) {
    const required = new Set(schema.required ?? []);
    lines.push(
      table(
        ['Field', 'Type', 'Description'],
        Object.entries(schema.properties).map(([field, fieldSchema]) => [
          `\`${field}\`${required.has(field) ? '' : ' (optional)'}`,
          `\`${typeText(fieldSchema)}\``,
          descriptionOf(fieldSchema),
        ]),
      ),
    );
  } else {
    lines.push(`\`${typeText(schema)}\``);
  }
  return lines.join('\n\n');
}

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}
