// The access layer's public face: build it once per server (createAccess), register the HTTP hook
// on the server's root (registerAccess), give Yoga the plugin (accessGraphqlPlugin) and graphql-ws
// the gate (webSocketGate); src/gateway/pipeline.ts puts them in their stages. Access.isOpenDevMode
// feeds /v1/health.
export { createAccess, type Access } from './access.ts';
export { OpenDevMode } from './authenticate.ts';
export { clientAddressOf, clientKey, trustedProxies } from './client-address.ts';
export { bearerChallenge } from './challenge.ts';
export { accessGraphqlPlugin } from './graphql-plugin.ts';
export { registerAccess } from './http-hook.ts';
export type { Principal, KeyPrincipal } from './principal.ts';
export { webSocketGate } from './websocket-gate.ts';
