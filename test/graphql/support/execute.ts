// Runs a GraphQL document against the schema in-process, with a fresh per-request context, the
// way one HTTP request would.
import { graphql, type ExecutionResult } from 'graphql';
import { createGraphqlContext } from '../../../src/graphql/context.ts';
import { schema } from '../../../src/gateway/schema.ts';
import type { Services } from '../../../src/platform/services.ts';

export interface ErrorShape {
  message: string;
  code?: string;
  details?: Record<string, unknown> | null;
}

export async function run<T = Record<string, any>>(
  services: Services,
  source: string,
  variableValues?: Record<string, unknown>,
): Promise<{ data: T | null | undefined; errors: ErrorShape[] }> {
  const result = (await graphql({
    schema,
    source,
    variableValues,
    contextValue: createGraphqlContext(services),
  })) as ExecutionResult<T>;
  const errors = (result.errors ?? []).map((e) => ({
    message: e.message,
    code: e.extensions?.code as string | undefined,
    details: e.extensions?.details as Record<string, unknown> | null | undefined,
  }));
  return { data: result.data, errors };
}

/** Data of a query expected to succeed; fails the test with the errors otherwise. */
export async function query<T = Record<string, any>>(
  services: Services,
  source: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  const { data, errors } = await run<T>(services, source, variables);
  if (errors.length) throw new Error(`unexpected GraphQL errors: ${JSON.stringify(errors)}`);
  return data as T;
}

/** The single error of a query expected to fail. */
export async function failure(
  services: Services,
  source: string,
  variables?: Record<string, unknown>,
): Promise<ErrorShape> {
  const { errors } = await run(services, source, variables);
  if (errors.length !== 1) throw new Error(`expected one error, got ${JSON.stringify(errors)}`);
  return errors[0]!;
}

export const domainsOf = (connection: { edges: { node: { domain: string } }[] }) =>
  connection.edges.map((e) => e.node.domain);
