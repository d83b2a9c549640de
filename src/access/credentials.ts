// Where a caller's credential may be: `Authorization: Bearer <key>` or `X-Api-Key: <key>` for API
// keys, `X-Service-Token` for the web app's own credential. Never the query string: a key there
// ends up in proxies' and browsers' histories, so such a request is refused, unserved.
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError, badRequest } from '../platform/errors.ts';
import { looksLikeApiKey } from './key-format.ts';

export const SERVICE_TOKEN_HEADER = 'x-service-token';

/** Query parameter names a credential hides under (compared without case, dashes or underscores). */
const CREDENTIAL_PARAMETERS = new Set([
  'apikey',
  'key',
  'xapikey',
  'token',
  'accesstoken',
  'auth',
  'authorization',
  'bearer',
  'servicetoken',
]);
const normalise = (name: string) => name.toLowerCase().replace(/[-_]/g, '');

/** The query parameter carrying a credential, if any: by its name, or by a value shaped like our keys. */
export function credentialInQuery(url: string): string | undefined {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return undefined;
  for (const [name, value] of new URLSearchParams(url.slice(queryStart + 1))) {
    if (CREDENTIAL_PARAMETERS.has(normalise(name)) || looksLikeApiKey(value)) return name;
  }
  return undefined;
}

export const keyInQueryError = (parameter: string) =>
  badRequest(
    'API keys are never accepted in the query string. Send it in the Authorization: Bearer or X-Api-Key header, and replace this key: it may have been logged along the way.',
    {
      parameter,
      rule: 'credentials go in the Authorization or X-Api-Key header, never in the query string',
    },
  );

const single = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value[0] : value)?.trim() || undefined;

/** The API key a request presents, undefined when none; throws unauthorized for a malformed header. */
export function presentedApiKey(headers: IncomingHttpHeaders): string | undefined {
  const authorization = single(headers.authorization);
  const headerKey = single(headers['x-api-key']);
  let bearer: string | undefined;
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match)
      throw new ApiError('unauthorized', 'The Authorization header must be "Bearer <API_KEY>".');
    bearer = match[1];
  }
  if (bearer && headerKey && bearer !== headerKey) {
    throw new ApiError(
      'unauthorized',
      'Authorization and X-Api-Key carry different keys; send one.',
    );
  }
  return bearer ?? headerKey;
}

export const presentedServiceToken = (headers: IncomingHttpHeaders) =>
  single(headers[SERVICE_TOKEN_HEADER]);
