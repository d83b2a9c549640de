// Whose resources a caller sees (spec 5.7: Signals are scoped to the owner of the key; alerts are too).
// A key's account owns them; in open-dev mode (no keys exist, never in production) every keyless
// caller shares one "open-dev" account, created on first use, so they still have an owner.
import type { GraphqlContext } from '../graphql/context.ts';

export const OPEN_DEV_ACCOUNT = 'open-dev';
/** The account that owns what the caller creates (Signals watches, alerts). */
export async function ownerAccountId(ctx: GraphqlContext): Promise<number> {
  if (ctx.accountId !== null) return ctx.accountId;
  const account = await ctx.services.db.prisma.account.upsert({
    where: { externalId: OPEN_DEV_ACCOUNT },
    create: { externalId: OPEN_DEV_ACCOUNT, name: 'Open-dev mode (no keys exist)' },
    update: {},
    select: { id: true },
  });
  return account.id;
}
