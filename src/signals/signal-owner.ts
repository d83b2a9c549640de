// Whose watches a caller sees (spec 5.7: Signals are scoped to the owner of the key). A key's
// account owns its watches; in open-dev mode (no keys exist, never in production) every keyless
// caller shares one "open-dev" account, created on first use, so watches still have an owner.
import type { GraphqlContext } from '../graphql/context.ts';
import { reasonError } from '../platform/errors.ts';

export const OPEN_DEV_ACCOUNT = 'open-dev';
/** the scope of a partner service key: may read any domain already on Signals, may not create or alter watches */
export const SIGNALS_READ_SCOPE = 'signals:read';

export const isPartner = (ctx: GraphqlContext): boolean => ctx.scopes.includes(SIGNALS_READ_SCOPE);

/** The account that owns the caller's watches. */
export async function signalOwnerId(ctx: GraphqlContext): Promise<number> {
  if (ctx.accountId !== null) return ctx.accountId;
  const account = await ctx.services.db.prisma.account.upsert({
    where: { externalId: OPEN_DEV_ACCOUNT },
    create: { externalId: OPEN_DEV_ACCOUNT, name: 'Open-dev mode (no keys exist)' },
    update: {},
    select: { id: true },
  });
  return account.id;
}

/** Partner keys read; they never create, alter or delete watches (unauthorized with details.reason scope, HTTP 403). */
export function assertMayWrite(ctx: GraphqlContext): void {
  if (isPartner(ctx)) {
    throw reasonError(
      'scope',
      'A partner key (scope signals:read) may read Signals but not create, alter or delete watches.',
      {
        scope: SIGNALS_READ_SCOPE,
      },
    );
  }
}
