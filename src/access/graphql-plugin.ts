// Admission as a plugin of the GraphQL envelope (the pipeline's admit stage, src/gateway/pipeline.ts):
// every operation, from /graphql, a REST route or an MCP tool call, is admitted and charged by
// admission.ts before it executes, and a refusal answers instead of it, as a GraphQL error with
// its HTTP status and rate-limit headers. Over SSE a subscription ends once its key is refused;
// over WebSocket the socket is checked by the gateway. The answer carries its charge in
// `extensions.quota`.
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ApiError } from '../platform/errors.ts';
import type { Access } from './access.ts';
import type { CallerContext, Operation } from './admission.ts';
import { bearerChallenge } from './challenge.ts';
import { rateLimitHeaders } from './headers.ts';
import { isDataPrincipal } from './principal.ts';
import { RateLimitedError, type LimitState } from './quota.ts';
import { endOnRevocation, type StillAdmitted } from './stream-revocation.ts';
import type { IncomingHttpHeaders } from 'node:http';

/** What a Fastify request offers for identifying its caller again (a WebSocket's upgrade request has no `raw`). */
interface HttpRequest {
  raw: { socket: object };
  ip: string;
  headers: IncomingHttpHeaders;
}
const isHttpRequest = (req: object | undefined): req is HttpRequest =>
  req !== undefined && 'raw' in req && 'ip' in req;

/** The context as admission reads it, with the request the SSE recheck identifies again. */
type AccessContext = CallerContext & { req?: object };

export function toGraphqlError(error: ApiError, limits: LimitState[] = []): GraphQLError {
  const headers: Record<string, string> = { ...rateLimitHeaders(limits) };
  if (error.retryAfter !== undefined) headers['Retry-After'] = String(error.retryAfter);
  if (error.status === 401) headers['WWW-Authenticate'] = bearerChallenge(error);
  return new GraphQLError(error.message, {
    extensions: { ...error.extensions, http: { status: error.status, headers } },
  });
}

/** What onExecute and onSubscribe hand a plugin, as far as admission reads and answers it. */
interface GateHook {
  args: Operation & { contextValue: unknown };
  setResultAndStopExecution(result: { errors: GraphQLError[] }): void;
}

/** A refusal as the GraphQL error that answers it (with its rate-limit headers); anything else is a failure of ours. */
function refusalOf(error: unknown): GraphQLError {
  if (error instanceof RateLimitedError) return toGraphqlError(error, error.limits);
  if (error instanceof ApiError) return toGraphqlError(error);
  throw error;
}

/** Stops the operation with the error that refuses it. */
function refuse(hook: GateHook, error: unknown): void {
  hook.setResultAndStopExecution({ errors: [refusalOf(error)] });
}

export function accessGraphqlPlugin(access: Access): Plugin {
  /**
   * Runs the operation's admission; a refusal answers instead of the operation. At once with
   * in-process counters, through a promise with Redis's (every operation runs this).
   */
  function gate(hook: GateHook): void | Promise<void> {
    const context = hook.args.contextValue as AccessContext;
    let admitted: void | Promise<void>;
    try {
      admitted = access.admission.admitOperation(hook.args, context);
    } catch (error) {
      return refuse(hook, error);
    }
    if (admitted instanceof Promise)
      return admitted.then(undefined, (error: unknown) => refuse(hook, error));
  }

  /**
   * For a subscription over HTTP (SSE) by a data principal: asks the access layer again who sends
   * this request's credential, so the stream ends once it is refused (WebSocket rechecks its sockets itself).
   */
  function stillAdmittedOf(context: AccessContext): StillAdmitted | undefined {
    const req = context.req;
    if (!isHttpRequest(req) || !isDataPrincipal(context.principal)) return undefined;
    const options = { allowAnonymous: false, client: req.ip, connection: req.raw.socket };
    return () =>
      Promise.resolve()
        .then(() => access.identify(req.headers, options))
        .then(isDataPrincipal, (error: unknown) => {
          // a refusal (unauthorized, or the per-address limit of refused callers) ends the stream; an outage does not
          if (error instanceof ApiError) return false;
          throw error;
        });
  }

  const onSubscribe = (hook: GateHook) => {
    const gated = gate(hook);
    const stillAdmitted = stillAdmittedOf(hook.args.contextValue as AccessContext);
    if (!stillAdmitted) return gated;
    const watch = {
      onSubscribeResult({
        result,
        setResult,
      }: {
        result: unknown;
        setResult(result: AsyncIterableIterator<ExecutionResult>): void;
      }) {
        if (typeof result === 'object' && result !== null && Symbol.asyncIterator in result) {
          setResult(endOnRevocation(result as AsyncIterable<ExecutionResult>, stillAdmitted));
        }
      },
    };
    return gated instanceof Promise ? gated.then(() => watch) : watch;
  };

  /** Writes what admission charged into the answer's `extensions.quota` (over WebSocket, the only place a client sees it). */
  const reportQuota = (context: AccessContext) => ({
    onExecuteDone({
      result,
      setResult,
    }: {
      result: ExecutionResult | AsyncIterableIterator<ExecutionResult>;
      setResult(result: ExecutionResult): void;
    }) {
      if (!context.quotaSpent || Symbol.asyncIterator in result) return;
      setResult({ ...result, extensions: { ...result.extensions, quota: context.quotaSpent } });
    },
  });

  const onExecute = (hook: GateHook) => {
    const gated = gate(hook);
    const report = reportQuota(hook.args.contextValue as AccessContext);
    return gated instanceof Promise ? gated.then(() => report) : report;
  };

  return { onExecute, onSubscribe };
}
