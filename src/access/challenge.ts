// The WWW-Authenticate challenge of every 401 (RFC 6750 section 3): Bearer with the service's realm;
// error="invalid_token" when a credential was presented and refused (none when it was missing, as
// the RFC asks); and on MCP's endpoint the protected-resource metadata (RFC 9728), which MCP
// clients read to learn how to authenticate.
import type { ApiError } from '../platform/errors.ts';

export const REALM = 'store-intelligence';

/** refusals of a presented credential (unknown or revoked key, wrong service token) */
const invalidTokens = new WeakSet<ApiError>();

export function asInvalidToken(error: ApiError): ApiError {
  invalidTokens.add(error);
  return error;
}

export function bearerChallenge(error: ApiError, resourceMetadataUrl?: string): string {
  let challenge = `Bearer realm="${REALM}"`;
  if (invalidTokens.has(error)) challenge += ', error="invalid_token"';
  if (resourceMetadataUrl) challenge += `, resource_metadata="${resourceMetadataUrl}"`;
  return challenge;
}
