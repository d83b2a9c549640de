// The one place a request is charged: every operation, from /graphql or from a REST route (which
// runs its persisted operation through the same envelope), has its root fields charged before it
// runs (graphql-charges.ts, from the rules each field declares), key management needs the web app's
// credential, lists stay inside the plan's result window, and the HTTP answer carries the rate-limit
// headers. Works for HTTP (the caller was identified by the HTTP hook) and WebSocket (identified at
// connection_init by the WebSocket gate).
import {
  getOperationAST,
  getVariableValues,
  GraphQLError,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import type { IncomingHttpHeaders } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import { ApiError, reasonError } from '../platform/errors.ts';
import { ACCESS_IN_CONTEXT, type Access } from './access.ts';
import { missingKey } from './authenticate.ts';
import { bearerChallenge } from './challenge.ts';
import { checkResultWindow, operationCost } from './graphql-charges.ts';
import { rateLimitHeaders, sendRateLimitHeaders } from './headers.ts';
import { isDataPrincipal, principalOf, type Principal } from './principal.ts';
import { RateLimitedError, type Charge, type LimitState } from './quota.ts';
import type { MaybePromise } from './counters.ts';
import { endOnRevocation, type StillAdmitted } from './stream-revocation.ts';

/** What a Fastify request offers for identifying its caller again (a WebSocket's upgrade request has no `raw`). */
interface HttpRequest {
  raw: { socket: object };
  ip: string;
  headers: IncomingHttpHeaders;
}
const isHttpRequest = (req: object | undefined): req is HttpRequest =>
  req !== undefined && 'raw' in req && 'ip' in req;
import type { Answer } from './provisional-charges.ts';

interface AccessContext {
  /** FastifyRequest over HTTP, the upgrade IncomingMessage over WebSocket */
  req?: object;
  /** the Fastify reply over HTTP (both faces): the rate-limit headers are set on it, and its response settles the charge */
  reply?: { header(name: string, value: string): unknown; raw?: Answer };
  /** how many calls this operation is charged as (default 1; an export's pages, src/gateway/server-context.ts) */
  listCalls?: number;
  /** set on admission: the caller's result window, where pageInfo.hasNextPage stops (src/graphql/pagination.ts) */
  resultWindow?: number;
  /** set on admission: what the operation was charged and the limits left, for `extensions.quota` */
  quotaSpent?: QuotaSpent;
}

/** `extensions.quota` of an answer: the operation's charge and, per limit, what is left (the RateLimit headers' figures). */
interface QuotaSpent {
  charged: { requests: number; buckets: Charge['buckets'] };
  limits: Array<Pick<LimitState, 'policy' | 'limit' | 'remaining' | 'resetSeconds'>>;
}

const quotaSpent = (charge: Charge, limits: LimitState[]): QuotaSpent => ({
  charged: { requests: charge.units, buckets: charge.buckets },
  limits: limits.map(({ policy, limit, remaining, resetSeconds }) => ({
    policy,
    limit,
    remaining,
    resetSeconds,
  })),
});

interface Operation {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
  contextValue: unknown;
}

const webAppOnly = (principal: Principal) =>
  principal.kind === 'anonymous'
    ? new ApiError(
        'unauthorized',
        "Key management needs the web app's service credential (X-Service-Token).",
      )
    : reasonError(
        'scope',
        "Key management is reserved to the web app's service credential; an API key cannot mint, list or revoke keys.",
      );

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
  args: Operation;
  setResultAndStopExecution(result: { errors: GraphQLError[] }): void;
  extendContext(extension: object): void;
}

/** A charge counted `times` over (an export's pages, charged together before it streams). */
const timesCharge = (charge: Charge, times: number): Charge => ({
  units: charge.units * times,
  buckets: Object.fromEntries(
    Object.entries(charge.buckets).map(([bucket, units]) => [bucket, (units ?? 0) * times]),
  ),
});

export interface AccessPluginOptions {
  /** the page size of a connection whose `first` is omitted (the schema's pagination default) */
  defaultPageSize: number;
}

export function accessGraphqlPlugin(
  access: Access,
  { defaultPageSize }: AccessPluginOptions,
): Plugin {
  /** A refusal as the GraphQL error that answers it (with its rate-limit headers); anything else is a failure of ours. */
  function refusalOf(context: AccessContext, error: unknown): GraphQLError {
    if (error instanceof RateLimitedError) {
      sendRateLimitHeaders(context, error.limits);
      return toGraphqlError(error, error.limits);
    }
    if (error instanceof ApiError) return toGraphqlError(error);
    throw error;
  }

  /**
   * Admits the operation (charging it) or returns the error that refuses it: at once with in-process
   * counters, through a promise with Redis's (every operation runs this; a promise costs it CPU).
   */
  function admit(operation: Operation): MaybePromise<GraphQLError | undefined> {
    const context = operation.contextValue as AccessContext;
    const principal = principalOf(context.req) ?? { kind: 'anonymous' };
    const ast = getOperationAST(operation.document, operation.operationName);
    if (!ast) return undefined; // execution reports the missing operation itself
    // charge what will execute: the variables as execution coerces them (defaults applied, a single
    // value as a list of one); variables that fail coercion refuse the operation, which then costs nothing
    const coerced = getVariableValues(
      operation.schema,
      ast.variableDefinitions ?? [],
      operation.variableValues ?? {},
    );
    if (coerced.errors) return undefined;
    const variables = coerced.coerced;
    try {
      const cost = operationCost(operation.schema, operation.document, ast, variables);
      if (cost.webAppFields.length > 0 && principal.kind !== 'webApp') throw webAppOnly(principal);
      if (cost.dataFields.length === 0) return undefined;
      if (!isDataPrincipal(principal)) {
        throw principal.kind === 'webApp'
          ? new ApiError(
              'unauthorized',
              'The service token manages keys only; reading data needs an API key.',
            )
          : missingKey();
      }
      const unscoped =
        principal.kind === 'key'
          ? cost.scopedFields.find(({ scope }) => !principal.scopes.includes(scope))
          : undefined;
      if (unscoped) {
        throw reasonError(
          'scope',
          `${unscoped.field} needs a key with the ${unscoped.scope} scope; this key does not carry it.`,
          { scope: unscoped.scope },
        );
      }
      const { window, planName } = access.resultWindowOf(principal);
      context.resultWindow = window;
      checkResultWindow(operation.schema, operation.document, variables, {
        window,
        planName,
        defaultPageSize,
      });
      const calls = context.listCalls ?? 1;
      if (calls === 0) return undefined;
      const charge = calls === 1 ? cost.charge : timesCharge(cost.charge, calls);
      const limits = access.admit(principal, charge, context.reply?.raw);
      if (limits instanceof Promise) {
        return limits.then(
          (settled) => {
            sendRateLimitHeaders(context, settled);
            context.quotaSpent = quotaSpent(charge, settled);
            return undefined;
          },
          (error: unknown) => refusalOf(context, error),
        );
      }
      sendRateLimitHeaders(context, limits);
      context.quotaSpent = quotaSpent(charge, limits);
      return undefined;
    } catch (error) {
      return refusalOf(context, error);
    }
  }

  /** Runs the operation's admission; a refusal answers instead of the operation. */
  function gate({
    args,
    setResultAndStopExecution,
    extendContext,
  }: GateHook): void | Promise<void> {
    extendContext({ [ACCESS_IN_CONTEXT]: access } as object);
    const refusal = admit(args);
    if (refusal instanceof Promise) {
      return refusal.then((settled) => {
        if (settled) setResultAndStopExecution({ errors: [settled] });
      });
    }
    if (refusal) setResultAndStopExecution({ errors: [refusal] });
  }

  /**
   * For a subscription over HTTP (SSE) by a data principal: asks the access layer again who sends
   * this request's credential, so the stream ends once it is refused (WebSocket rechecks its sockets itself).
   */
  function stillAdmittedOf(context: AccessContext): StillAdmitted | undefined {
    const req = context.req;
    if (!isHttpRequest(req) || !isDataPrincipal(principalOf(req))) return undefined;
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
