// Who is calling. Set by the HTTP hook (and the WebSocket gate) once per request or connection,
// read by the GraphQL plugin and by any feature that scopes data to the key's owner (Signals).
import type { AccountPlan } from './plans.ts';

export interface KeyPrincipal {
  kind: 'key';
  keyId: number;
  /** displayed prefix of the key, safe for logs */
  keyPrefix: string;
  accountId: number;
  accountExternalId: string;
  plan: AccountPlan;
  scopes: readonly string[];
}

/** open-dev mode: no keys exist and the request carried none (never in production) */
export interface OpenDevPrincipal {
  kind: 'openDev';
  /** the client's address: open-dev requests are rate limited per address */
  client: string;
}

/** the web app's own service credential: may manage keys on behalf of accounts, nothing else */
export interface WebAppPrincipal {
  kind: 'webApp';
}

/** no credential on /graphql: may load GraphiQL and introspect, nothing else */
export interface AnonymousPrincipal {
  kind: 'anonymous';
}

export type Principal = KeyPrincipal | OpenDevPrincipal | WebAppPrincipal | AnonymousPrincipal;

/** the principals data may be served to */
export type DataPrincipal = KeyPrincipal | OpenDevPrincipal;

/**
 * Where a request object carries its principal: a property under a symbol only this module holds
 * (so nothing else can set or forge it, and neither JSON nor a log serializer sees it). A WeakMap
 * did the same at a cost on every request: an entry per request in a table the garbage collector
 * must sweep.
 */
const PRINCIPAL = Symbol('principal');

type Carrier = { [PRINCIPAL]?: Principal };

/** Binds a principal to a request object (a FastifyRequest, or a WebSocket's upgrade IncomingMessage). */
export function bindPrincipal(request: object, principal: Principal): void {
  (request as Carrier)[PRINCIPAL] = principal;
}

/** The principal of a request or WebSocket upgrade request; undefined when the access layer did not see it. */
export function principalOf(request: object | undefined): Principal | undefined {
  return request ? (request as Carrier)[PRINCIPAL] : undefined;
}

export const isDataPrincipal = (p: Principal | undefined): p is DataPrincipal =>
  p?.kind === 'key' || p?.kind === 'openDev';

/** The account data a principal creates belongs to: its key's account; null in open-dev mode (and for no data principal). */
export const accountIdOf = (p: Principal | undefined): number | null =>
  p?.kind === 'key' ? p.accountId : null;

/** The scopes a principal's key carries (signals:read for a partner service key); none otherwise. */
export const scopesOf = (p: Principal | undefined): readonly string[] =>
  p?.kind === 'key' ? p.scopes : [];
