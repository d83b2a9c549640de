// GraphQL over WebSocket: the key travels in connection_init's payload ({"Authorization": "Bearer
// <key>"} or {"X-Api-Key": "<key>"}, any case) or in the upgrade request's headers; a key in the
// URL refuses the socket like any request. The socket's principal then applies to each operation
// it runs (graphql-plugin.ts charges them one by one).
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Access } from './access.ts';
import { credentialInQuery } from './credentials.ts';
import { bindPrincipal, isDataPrincipal } from './principal.ts';

function headersFrom(
  request: IncomingMessage,
  connectionParams: Record<string, unknown> | undefined,
): IncomingHttpHeaders {
  const fromParams = Object.fromEntries(
    Object.entries(connectionParams ?? {})
      .filter(([, value]) => typeof value === 'string')
      .map(([name, value]) => [name.toLowerCase(), value as string]),
  );
  if (typeof fromParams.apikey === 'string') fromParams['x-api-key'] ??= fromParams.apikey;
  const carriesKey =
    fromParams.authorization !== undefined || fromParams['x-api-key'] !== undefined;
  return carriesKey
    ? { authorization: fromParams.authorization, 'x-api-key': fromParams['x-api-key'] }
    : { authorization: request.headers.authorization, 'x-api-key': request.headers['x-api-key'] };
}

/** `clientOf`: the client's address (after TRUST_PROXY), as the HTTP hook's request.ip */
export function webSocketGate(access: Access, clientOf: (request: IncomingMessage) => string) {
  return async (
    request: IncomingMessage,
    connectionParams: Record<string, unknown> | undefined,
  ): Promise<boolean> => {
    if (credentialInQuery(request.url ?? '') !== undefined) return false;
    try {
      const principal = await access.identify(headersFrom(request, connectionParams), {
        allowAnonymous: false,
        client: clientOf(request),
      });
      if (!isDataPrincipal(principal)) return false;
      bindPrincipal(request, principal);
      return true;
    } catch {
      return false;
    }
  };
}
