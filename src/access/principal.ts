// Who is calling. Found by the identify stage once per request (the HTTP hook sets it on the
// Fastify request) or connection (the WebSocket gate), then carried in the server context and the
// GraphQL context (`principal`) to admission and to any feature that scopes data to the key's owner.
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

/** A caller without credentials (frozen: shared by every such request). */
export const ANONYMOUS: AnonymousPrincipal = Object.freeze({ kind: 'anonymous' });

/** the principals data may be served to */
export type DataPrincipal = KeyPrincipal | OpenDevPrincipal;

export const isDataPrincipal = (p: Principal | null | undefined): p is DataPrincipal =>
  p?.kind === 'key' || p?.kind === 'openDev';

/** The account data a principal creates belongs to: its key's account; null in open-dev mode (and for no data principal). */
export const accountIdOf = (p: Principal | null | undefined): number | null =>
  p?.kind === 'key' ? p.accountId : null;

/** The scopes a principal's key carries (signals:read for a partner service key); none otherwise. */
export const scopesOf = (p: Principal | null | undefined): readonly string[] =>
  p?.kind === 'key' ? p.scopes : [];
