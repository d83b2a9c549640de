// One log line per request, without credentials. Keys travel in Authorization / X-Api-Key (never
// logged: no headers are logged at all), and a caller who puts one in the query string anyway
// (the contract forbids it) must not leak it into the logs either.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { API_KEY_IN_TEXT } from '../access/key-format.ts';

/** Query parameters whose values are replaced in logs. Over-redacting (e.g. "keyword") is harmless. */
const SECRET_PARAMETER = /key|token|secret|password|auth|signature/i;

export function redactUrl(rawUrl: string): string {
  // anything shaped like one of our keys, wherever it stands (any parameter name, even the path)
  const url = rawUrl.replace(API_KEY_IN_TEXT, '[redacted]');
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const params = new URLSearchParams(url.slice(queryStart + 1));
  for (const name of new Set(params.keys())) {
    if (SECRET_PARAMETER.test(name)) params.set(name, '[redacted]');
  }
  const query = params.toString();
  return query ? `${url.slice(0, queryStart)}?${query}` : url.slice(0, queryStart);
}

/** What any log line says about a request (the `req` serializer of the HTTP logger). */
export function describeRequest(request: { method?: string; url?: string }) {
  return { method: request.method, url: redactUrl(request.url ?? '') };
}

export class AccessLog extends LogController {
  // "incoming request" lines double the volume for no information the completion line lacks
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    // below the logger's level the line is not written: not worth describing the request for (LOG_LEVEL=warn)
    const log = reply.log as { isLevelEnabled?: (level: string) => boolean };
    if (log.isLevelEnabled && !log.isLevelEnabled(error ? 'error' : 'info')) return;
    const entry = {
      req: describeRequest(request),
      statusCode: reply.statusCode,
      responseTimeMs: Math.round(reply.elapsedTime),
    };
    if (error) reply.log.error({ ...entry, err: error }, 'request failed');
    else reply.log.info(entry, 'request completed');
  }
}
