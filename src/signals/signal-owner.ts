// Who may alter watches: partner service keys read Signals only. Whose watches a caller sees is
// the account that owns what it creates (src/access/account-owner.ts).
import type { GraphqlContext } from '../graphql/context.ts';
import { reasonError } from '../platform/errors.ts';

/** the scope of a partner service key: may read any domain already on Signals, may not create or alter watches */
export const SIGNALS_READ_SCOPE = 'signals:read';

export const isPartner = (ctx: GraphqlContext): boolean => ctx.scopes.includes(SIGNALS_READ_SCOPE);

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
