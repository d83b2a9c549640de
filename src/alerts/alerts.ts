// The alert lifecycle: create (within the plan's number of alerts), list, read, delete, and the
// matches of one. Alerts belong to the key's account exactly as Signals watches do (access/account-owner.ts):
// another account's alert is not_found, indistinguishable from none.
import type { GraphqlContext } from '../graphql/context.ts';
import type { Window } from '../graphql/pagination.ts';
import { resolvePlans, type PlanName } from '../access/plans.ts';
import { guardDb, queryRows } from '../platform/database/sql.ts';
import { inTransaction } from '../platform/database/transaction.ts';
import { badRequest, notFound, reasonError } from '../platform/errors.ts';
import { checkCallbackUrl } from '../platform/egress/callback-url.ts';
import { ownerAccountId } from '../access/account-owner.ts';
import type { StoreFilterValues } from '../stores/store-filter.ts';
import { storedFilter } from './alert-filter.ts';

export const MAX_ALERT_NAME = 100;

export interface AlertRecord {
  id: number;
  accountId: number;
  name: string;
  /** the StoreFilter values as stored (dates as ISO strings) */
  filter: Record<string, unknown>;
  callbackUrl: string | null;
  createdAt: Date;
  matchCount: number;
}

export interface AlertMatchRecord {
  domain: string;
  matchedAt: Date;
}

const ALERT_COLUMNS = `a.id, a.account_id AS "accountId", a.name, a.filter, a.callback_url AS "callbackUrl",
  a.created_at AS "createdAt", (SELECT count(*)::int FROM alert_matches m WHERE m.alert_id = a.id) AS "matchCount"`;

const clockOf = (ctx: GraphqlContext) => ctx.services.clock?.() ?? new Date();

/** The caller's alert, or not_found (another account's alert is indistinguishable from none). */
export async function findAlert(ctx: GraphqlContext, id: number): Promise<AlertRecord> {
  const owner = await ownerAccountId(ctx);
  const [alert] = await guardDb(
    queryRows<AlertRecord>(
      ctx.services.db.pool,
      `SELECT ${ALERT_COLUMNS} FROM alerts a WHERE a.id = $1 AND a.account_id = $2`,
      [id, owner],
    ),
  );
  if (!alert) throw notFound(`No alert ${id} for this key's account.`, { id });
  return alert;
}

/** The caller's alerts by id (node lookups), in the order asked; null for another account's or a missing one. */
export async function alertsByIds(
  ctx: GraphqlContext,
  ids: readonly number[],
): Promise<Array<AlertRecord | null>> {
  const owner = await ownerAccountId(ctx);
  const rows = await guardDb(
    queryRows<AlertRecord>(
      ctx.services.db.pool,
      `SELECT ${ALERT_COLUMNS} FROM alerts a WHERE a.id = ANY($1::int[]) AND a.account_id = $2`,
      [ids.filter((id) => Number.isSafeInteger(id)), owner],
    ),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}

export interface AlertOrder {
  name: string;
  filter: StoreFilterValues;
  callbackUrl?: string | null;
}

export async function createAlert(ctx: GraphqlContext, order: AlertOrder): Promise<AlertRecord> {
  const name = order.name.trim();
  if (name.length === 0 || name.length > MAX_ALERT_NAME) {
    const rule = `must be 1 to ${MAX_ALERT_NAME} characters`;
    throw badRequest(`Invalid name: ${rule}`, { parameter: 'name', rule });
  }
  const filter = storedFilter(order.filter);
  if (Object.keys(filter).length === 0) {
    const rule = 'must hold at least one filter of GET /v1/stores';
    throw badRequest(`Invalid filter: ${rule}`, { parameter: 'filter', rule });
  }
  const callbackUrl = order.callbackUrl
    ? checkCallbackUrl(
        ctx.services,
        order.callbackUrl,
        'callbackUrl',
        'read GET /v1/alerts/{id}/matches instead',
      )
    : null;
  const owner = await ownerAccountId(ctx);
  const id = await guardDb(
    inTransaction(ctx.services.db.pool, async (client) => {
      // the account row's lock makes the count and the insert one step under concurrent creates
      const {
        rows: [account],
      } = await client.query<{ plan: string }>(
        'SELECT plan::text AS plan FROM accounts WHERE id = $1 FOR UPDATE',
        [owner],
      );
      const planName: PlanName =
        ctx.accountId === null ? 'openDev' : ((account?.plan ?? 'free') as PlanName);
      const limit = resolvePlans(ctx.services.config.PLAN_LIMITS_JSON)[planName].alerts;
      const {
        rows: [count],
      } = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM alerts WHERE account_id = $1',
        [owner],
      );
      if ((count?.n ?? 0) >= limit) {
        throw reasonError(
          'alert_limit',
          `This account has ${count?.n ?? 0} alerts, the most its plan (${planName}) allows (${limit}). Delete one first.`,
          { plan: planName, limit },
        );
      }
      const {
        rows: [created],
      } = await client.query<{ id: number }>(
        `INSERT INTO alerts (account_id, name, filter, callback_url, created_at)
         VALUES ($1, $2, $3::jsonb, $4, $5) RETURNING id`,
        [owner, name, JSON.stringify(filter), callbackUrl, clockOf(ctx)],
      );
      return created!.id;
    }),
  );
  return findAlert(ctx, id);
}

export async function deleteAlert(ctx: GraphqlContext, id: number): Promise<AlertRecord> {
  const alert = await findAlert(ctx, id);
  // its matches and webhook batches go with it (ON DELETE CASCADE); a pending batch job finds nothing
  await guardDb(ctx.services.db.pool.query('DELETE FROM alerts WHERE id = $1', [alert.id]));
  return alert;
}

/** The caller's alerts, newest first. */
export async function listAlerts(ctx: GraphqlContext, window: Window): Promise<AlertRecord[]> {
  const owner = await ownerAccountId(ctx);
  return guardDb(
    queryRows<AlertRecord>(
      ctx.services.db.pool,
      `SELECT ${ALERT_COLUMNS} FROM alerts a WHERE a.account_id = $1
        ORDER BY a.created_at DESC, a.id DESC LIMIT $2 OFFSET $3`,
      [owner, window.limit, window.offset],
    ),
  );
}

export async function countAlerts(ctx: GraphqlContext): Promise<{ total: number; exact: boolean }> {
  const owner = await ownerAccountId(ctx);
  const [row] = await guardDb(
    queryRows<{ n: number }>(
      ctx.services.db.pool,
      'SELECT count(*)::int AS n FROM alerts WHERE account_id = $1',
      [owner],
    ),
  );
  return { total: row?.n ?? 0, exact: true };
}

/** An alert's matches, newest first. */
export function listMatches(
  ctx: GraphqlContext,
  alertId: number,
  window: Window,
): Promise<AlertMatchRecord[]> {
  return guardDb(
    queryRows<AlertMatchRecord>(
      ctx.services.db.pool,
      `SELECT s.domain, m.matched_at AS "matchedAt" FROM alert_matches m JOIN stores s ON s.id = m.store_id
        WHERE m.alert_id = $1 ORDER BY m.matched_at DESC, m.id DESC LIMIT $2 OFFSET $3`,
      [alertId, window.limit, window.offset],
    ),
  );
}
