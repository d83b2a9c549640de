// GraphQL over WebSocket: the key travels in connection_init's payload ({"Authorization": "Bearer
// <key>"} or {"X-Api-Key": "<key>"}, any case) or in the upgrade request's headers; a key in the
// URL refuses the socket like any request. The gate answers the socket's principal (undefined:
// refused), which the gateway then carries in the context of each operation it runs (admission
// charges them one by one).
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Access } from './access.ts';
import { credentialInQuery } from './credentials.ts';
import { isDataPrincipal, type DataPrincipal } from './principal.ts';

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
  ): Promise<DataPrincipal | undefined> => {
    if (credentialInQuery(request.url ?? '') !== undefined) return undefined;
    try {
      const principal = await access.identify(headersFrom(request, connectionParams), {
        allowAnonymous: false,
        client: clientOf(request),
      });
      return isDataPrincipal(principal) ? principal : undefined;
    } catch {
      return undefined;
    }
  };
}
