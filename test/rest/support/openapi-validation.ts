// Validates response bodies against the response schemas of the served OpenAPI description with
// Ajv's JSON Schema 2020-12 dialect (the dialect of OpenAPI 3.1).
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { OpenAPIObject } from 'openapi3-ts/oas31';

// ajv-formats is CommonJS: imported from ESM, the plugin is the module and also its `default`
const addFormats = ajvFormats.default;

const DOCUMENT_ID = 'https://store-intelligence.invalid/openapi.json';

const pointer = (...segments: string[]) =>
  segments.map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export function responseValidator(document: OpenAPIObject) {
  // OpenAPI-only keywords (example, ...) are not JSON Schema vocabulary: not strict
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });

  return (method: string, path: string, status: number, body: unknown): string[] => {
    const ref = `${DOCUMENT_ID}#/${pointer('paths', path, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`;
    const validate = ajv.getSchema(ref);
    if (!validate) return [`no response schema for ${method} ${path} ${status}`];
    return validate(body)
      ? []
      : (validate.errors ?? []).map(
          (e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`,
        );
  };
}

/** The documented path template a request path falls under; static segments win over parameters. */
export function templateOf(templates: string[], url: string): string | undefined {
  const segments = (url.split('?')[0] ?? '').split('/');
  const candidates = templates.filter((template) => {
    const parts = template.split('/');
    return (
      parts.length === segments.length &&
      parts.every((part, i) => part.startsWith('{') || part === segments[i])
    );
  });
  const staticCount = (template: string) =>
    template.split('/').filter((part) => !part.startsWith('{')).length;
  return candidates.sort((a, b) => staticCount(b) - staticCount(a))[0];
}
