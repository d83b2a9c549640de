// Admission: whether a request may run, and what it costs. The one module that charges: a GraphQL
// operation (from /graphql, a REST route or an MCP tool call, all run through one envelope) before
// it executes (admitOperation, called by graphql-plugin.ts); a route that runs no operation, the
// screenshot image or MCP's protocol messages (admitRequest, called by http-hook.ts); a resolver's
// charge for what it found (chargeFound); and a caller without a valid credential, against its
// address's per-minute limit (chargeUnauthenticated, called by identify in access.ts). A data
// request's plan is checked first, then its result window, then it is charged and its answer
// carries the rate-limit headers.
import {
  getOperationAST,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { createRequire } from 'node:module';
import type { CoercedVariableValues } from 'graphql-jit/dist/variables.js';
import { DEFAULT_PAGE_SIZE } from '../graphql/pagination.ts';
import { ApiError, reasonError } from '../platform/errors.ts';
import { paidPlanRequired } from './api-keys.ts';
import { missingKey } from './authenticate.ts';
import type { MaybePromise } from './counters.ts';
import { checkResultWindow, operationCost } from './graphql-charges.ts';
import { sendRateLimitHeaders } from './headers.ts';
import type { QuotaBucket } from './plans.ts';
import { isDataPrincipal, type DataPrincipal, type Principal } from './principal.ts';
import type { Answer } from './provisional-charges.ts';
import { RateLimitedError, type Charge, type LimitState, type Quotas } from './quota.ts';

/** Where an answer's rate-limit headers go (a Fastify reply); its response settles a provisional charge. */
export interface Bill {
  header(name: string, value: string): unknown;
  raw?: Answer;
}

/**
 * The access layer's part of a GraphQL context, carried explicitly: the pipeline's context stage
 * (src/gateway/pipeline.ts) sets `principal` and `admission`; admission sets the rest.
 */
export interface CallerContext {
  /** who is calling, as the identify stage found it (anonymous when no credential came) */
  principal: Principal;
  /** absent only where no access layer runs (a bare Yoga in tests) */
  admission?: Admission;
  /** the Fastify reply over HTTP (both faces): the rate-limit headers are set on it */
  reply?: Bill;
  /** how many calls this operation is charged as (default 1; an export's pages, src/gateway/server-context.ts) */
  listCalls?: number;
  /** set on admission: the caller's result window, where pageInfo.hasNextPage stops (src/graphql/pagination.ts) */
  resultWindow?: number;
  /** set on admission: what the operation was charged and the limits left, for `extensions.quota` */
  quotaSpent?: QuotaSpent;
}

/** `extensions.quota` of an answer: the operation's charge and, per limit, what is left (the RateLimit headers' figures). */
export interface QuotaSpent {
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

/** An operation as envelop's onExecute and onSubscribe hand it over. */
export interface Operation {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
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

// graphql-jit's own module (its ESM copy of this file imports a path without an extension, which Node refuses)
const { compileVariableParsing, failToParseVariables } = createRequire(import.meta.url)(
  'graphql-jit/dist/variables.js',
) as typeof import('graphql-jit/dist/variables.js');

type VariableParser = (inputs: Record<string, unknown>) => CoercedVariableValues;
const variableParsers = new WeakMap<
  GraphQLSchema,
  WeakMap<OperationDefinitionNode, VariableParser>
>();

/**
 * The operation's variables as its compiled execution (graphql-jit) coerces them, with the parser
 * graphql-jit compiles, made once per operation: graphql-js's interpreting coercion cost every
 * request more than the rest of admission's checks.
 */
function coerceVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  inputs: Record<string, unknown>,
): CoercedVariableValues {
  let ofSchema = variableParsers.get(schema);
  if (!ofSchema) variableParsers.set(schema, (ofSchema = new WeakMap()));
  let parse = ofSchema.get(operation);
  if (!parse) {
    try {
      parse = compileVariableParsing(schema, operation.variableDefinitions ?? []);
    } catch (errors) {
      // a variable of a type that is not an input type: validation refuses it before this
      parse = () => ({ errors: errors as GraphQLError[] });
    }
    ofSchema.set(operation, parse);
  }
  return parse(inputs);
}

/** A charge counted `times` over (an export's pages, charged together before it streams). */
const timesCharge = (charge: Charge, times: number): Charge => ({
  units: charge.units * times,
  buckets: Object.fromEntries(
    Object.entries(charge.buckets).map(([bucket, units]) => [bucket, (units ?? 0) * times]),
  ),
});

/** A rate-limited refusal's headers go on the answer too; the refusal is thrown on. */
function refused(bill: Bill | undefined, error: unknown): never {
  if (error instanceof RateLimitedError && bill)
    sendRateLimitHeaders({ reply: bill }, error.limits);
  throw error;
}

export class Admission {
  constructor(
    readonly quotas: Quotas,
    /** requests per minute an address without a valid credential may make */
    private readonly unauthenticatedPerMinute: number,
  ) {}

  /** How deep the principal's plan lists (a list read past it is bad_request), and the plan's name for messages. */
  resultWindowOf(principal: DataPrincipal): { window: number; planName: string } {
    const planName = principal.kind === 'key' ? principal.plan : 'open-dev';
    return { window: this.quotas.planOf(principal).resultWindow, planName };
  }

  /**
   * Checks the plan allows API access, then charges: at once with in-process counters, through a
   * promise with shared ones (final once `answer` closes, refunded if this process dies before).
   */
  charge(principal: DataPrincipal, charge: Charge, answer?: Answer): MaybePromise<LimitState[]> {
    if (principal.kind === 'key' && !this.quotas.plans[principal.plan].apiAccess)
      throw paidPlanRequired(principal.plan);
    return this.quotas.charge(principal, charge, answer);
  }

  /**
   * A GraphQL operation, before it executes: web-app-only fields, a data principal, scopes, the
   * result window, then its root fields' charge (graphql-charges.ts). Sets the context's result
   * window, its `quotaSpent` and the rate-limit headers; throws (or rejects with) the ApiError that
   * refuses it. Variables that fail coercion are execution's to report, and then cost nothing.
   */
  admitOperation(operation: Operation, context: CallerContext): MaybePromise<void> {
    const principal = context.principal;
    const ast = getOperationAST(operation.document, operation.operationName);
    if (!ast) return; // execution reports the missing operation itself
    // charge what will execute: the variables as execution coerces them (defaults applied, a single value as a list of one)
    const coerced = coerceVariables(operation.schema, ast, operation.variableValues ?? {});
    if (failToParseVariables(coerced)) return;
    const variables = coerced.coerced;
    const cost = operationCost(operation.schema, operation.document, ast, variables);
    if (cost.webAppFields.length > 0 && principal.kind !== 'webApp') throw webAppOnly(principal);
    if (cost.dataFields.length === 0) return;
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
    const { window, planName } = this.resultWindowOf(principal);
    context.resultWindow = window;
    checkResultWindow(operation.schema, operation.document, variables, {
      window,
      planName,
      defaultPageSize: DEFAULT_PAGE_SIZE,
    });
    const calls = context.listCalls ?? 1;
    if (calls === 0) return;
    const charge = calls === 1 ? cost.charge : timesCharge(cost.charge, calls);
    const bill = context.reply;
    let limits: MaybePromise<LimitState[]>;
    try {
      limits = this.charge(principal, charge, bill?.raw);
    } catch (error) {
      refused(bill, error);
    }
    if (limits instanceof Promise) {
      return limits.then(
        (settled) => {
          sendRateLimitHeaders(context, settled);
          context.quotaSpent = quotaSpent(charge, settled);
        },
        (error: unknown) => refused(bill, error),
      );
    }
    sendRateLimitHeaders(context, limits);
    context.quotaSpent = quotaSpent(charge, limits);
  }

  /**
   * A data route that runs no GraphQL operation, `units` requests against the principal's limits
   * (`rateOnly`: the per-minute rate alone, MCP's protocol messages). Headers on `bill`.
   */
  admitRequest(
    principal: DataPrincipal,
    charge: Charge,
    bill: Bill,
  ): MaybePromise<readonly LimitState[]> {
    let limits: MaybePromise<LimitState[]>;
    try {
      limits = this.charge(principal, charge, bill.raw);
    } catch (error) {
      refused(bill, error);
    }
    if (limits instanceof Promise) {
      return limits.then(
        (settled) => {
          sendRateLimitHeaders({ reply: bill }, settled);
          return settled;
        },
        (error: unknown) => refused(bill, error),
      );
    }
    sendRateLimitHeaders({ reply: bill }, limits);
    return limits;
  }

  /**
   * Counts a request that brought no valid credential (a missing, unknown or revoked key, anonymous
   * GraphQL) against its address's per-minute limit; rejects with RateLimitedError past it.
   */
  chargeUnauthenticated(client: string): Promise<void> {
    return this.quotas.chargeUnauthenticated(client, this.unauthenticatedPerMinute);
  }
}

/**
 * The charge of a root field declared `unitsFound` (field-rules.ts): its units are the items it
 * found, known only once it has looked, so its resolver charges them here, after its arguments were
 * validated and before it answers. All of them or none: a bucket that cannot pay for every item
 * refuses the call with rate_limited and charges nothing (the rate and per-key ceiling counted the
 * call before it ran).
 */
export async function chargeFound(
  context: object,
  bucket: QuotaBucket,
  units: number,
): Promise<void> {
  const { admission, principal, reply } = context as CallerContext;
  if (!admission || !isDataPrincipal(principal) || units <= 0) return;
  const bill = reply ?? NO_BILL;
  await admission.admitRequest(principal, { units: 0, buckets: { [bucket]: units } }, bill);
}

/** Where headers go when there is no reply (a WebSocket operation): nowhere. */
const NO_BILL: Bill = { header: () => undefined };
