// The access layer's public face: build it once per server (createAccess), register the HTTP hook
// on the server's root (registerAccess), give Yoga the plugin (accessGraphqlPlugin) and graphql-ws
// the gate (webSocketGate). Access.isOpenDevMode feeds /v1/health; principalOf tells a feature (Signals)
// whose key a request carries.
export { createAccess, type Access } from './access.ts';
export { OpenDevMode } from './authenticate.ts';
export { clientAddressOf, clientKey, trustedProxies } from './client-address.ts';
export { bearerChallenge } from './challenge.ts';
export { accessGraphqlPlugin } from './graphql-plugin.ts';
export { registerAccess } from './http-hook.ts';
export { principalOf, type Principal, type KeyPrincipal } from './principal.ts';
export { webSocketGate } from './websocket-gate.ts';
