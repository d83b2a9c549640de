// An HTTP client for the seed-contract suite: real requests to a running service, each answer
// checked against two things every route owes the contract whatever it is — an error is the
// envelope {error: {code, message, details}} with code one of the six (spec part 7), and every JSON
// answer matches the schema the served OpenAPI description gives for its route and status.
import { expect } from 'vitest';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { responseValidator, templateOf } from '../../rest/support/openapi-validation.ts';

/** Spec part 7, word for word. */
export const CONTRACT_CODES = [
  'not_found',
  'bad_request',
  'unauthorized',
  'rate_limited',
  'query_timeout',
  'internal',
];

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface ContractClient {
  baseUrl: string;
  request(
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<Answer>;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  /** the same client sending these headers on every request (a key) */
  with(headers: Record<string, string>): ContractClient;
}

/** Asserts the contract's error envelope, and returns the error for further checks. */
export function expectError(
  answer: Answer,
  status: number,
  code: string,
): { code: string; message: string; details: any } {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.body.error.code, answer.text).toBe(code);
  return answer.body.error;
}

export async function contractClient(baseUrl: string): Promise<ContractClient> {
  const document = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as OpenAPIObject;
  const validate = responseValidator(document);
  const templates = Object.keys(document.paths ?? {});

  const make = (fixed: Record<string, string>): ContractClient => {
    const client: ContractClient = {
      baseUrl,
      async request(method, path, options = {}) {
        const headers: Record<string, string> = { ...fixed, ...options.headers };
        if (options.body !== undefined) headers['content-type'] = 'application/json';
        const response = await fetch(`${baseUrl}${path}`, {
          method,
          headers,
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
        });
        const text = await response.text();
        const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
        const body = isJson ? JSON.parse(text) : text;
        const where = `${method} ${path} → ${response.status}: ${text.slice(0, 400)}`;
        if (response.status >= 400) {
          expect(isJson, where).toBe(true);
          expect(Object.keys(body), where).toEqual(['error']);
          expect(Object.keys(body.error).sort(), where).toEqual(['code', 'details', 'message']);
          expect(CONTRACT_CODES, where).toContain(body.error.code);
          expect(typeof body.error.message, where).toBe('string');
        }
        const template = templateOf(templates, path);
        if (isJson && template)
          expect(validate(method, template, response.status, body), where).toEqual([]);
        return { status: response.status, headers: response.headers, body, text };
      },
      get: (path, headers) => client.request('GET', path, { headers }),
      with: (more) => make({ ...fixed, ...more }),
    };
    return client;
  };
  return make({});
}
