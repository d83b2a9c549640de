// Minting, listing and revoking API keys: the one implementation behind `npm run keys` and the web
// app's key mutations. A key is shown once, at minting; the database keeps its SHA-256 only.
import type { PrismaClient } from '../generated/prisma/client.ts';
import { type ApiError, reasonError, badRequest, notFound } from '../platform/errors.ts';
import { displayPrefix, generateApiKey, hashApiKey } from './key-format.ts';
import { PAID_PLANS, PLAN_PRICES_USD_PER_MONTH, type AccountPlan } from './plans.ts';

/**
 * Scopes a key may carry. A key without scopes is a user's key; a partner service key carries
 * signals:read; operations:read opens the crawler's internal state (the operations console) to an
 * operator's key, on top of what the key reads otherwise.
 */
export const KEY_SCOPES = ['signals:read', 'operations:read'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export interface ApiKeyRecord {
  id: number;
  name: string | null;
  prefix: string;
  scopes: string[];
  accountExternalId: string;
  plan: AccountPlan;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface MintApiKeyInput {
  /** the web app's id of the account; the account is created on first use */
  accountExternalId: string;
  /** the account's current plan, as the web app knows it */
  plan: AccountPlan;
  accountName?: string;
  name?: string;
  scopes?: readonly string[];
}

export interface MintedApiKey {
  /** the key itself: shown this once, never stored */
  key: string;
  record: ApiKeyRecord;
}

type KeyRow = {
  id: number;
  name: string | null;
  prefix: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  account: { externalId: string; plan: AccountPlan };
};

const withAccount = { account: { select: { externalId: true, plan: true } } } as const;

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    accountExternalId: row.account.externalId,
    plan: row.account.plan,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

export function paidPlanRequired(plan: AccountPlan): ApiError {
  const prices = PAID_PLANS.map(
    (p) => `${p[0]!.toUpperCase()}${p.slice(1)} at ${PLAN_PRICES_USD_PER_MONTH[p]} USD per month`,
  ).join(' or ');
  return reasonError(
    'plan',
    `API keys need a paid plan (${prices}); this account is on the ${plan} plan.`,
    {
      plan,
      requiredPlans: [...PAID_PLANS],
    },
  );
}

function checkScopes(scopes: readonly string[]): string[] {
  const unknown = scopes.filter((s) => !(KEY_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw badRequest(`Unknown scope ${unknown.join(', ')}.`, {
      parameter: 'scopes',
      rule: `each must be one of: ${KEY_SCOPES.join(', ')}`,
    });
  }
  return [...new Set(scopes)];
}

export async function mintApiKey(
  prisma: PrismaClient,
  input: MintApiKeyInput,
): Promise<MintedApiKey> {
  const externalId = input.accountExternalId.trim();
  if (!externalId)
    throw badRequest('The account id is empty.', {
      parameter: 'accountExternalId',
      rule: 'must not be empty',
    });
  if (!(PAID_PLANS as readonly string[]).includes(input.plan)) throw paidPlanRequired(input.plan);
  const scopes = checkScopes(input.scopes ?? []);

  const key = generateApiKey();
  const row = await prisma.$transaction(async (tx) => {
    const account = await tx.account.upsert({
      where: { externalId },
      create: { externalId, name: input.accountName ?? externalId, plan: input.plan },
      update: { plan: input.plan, ...(input.accountName ? { name: input.accountName } : {}) },
    });
    return tx.apiKey.create({
      data: {
        accountId: account.id,
        name: input.name ?? null,
        prefix: displayPrefix(key),
        hash: hashApiKey(key),
        scopes,
      },
      include: withAccount,
    });
  });
  return { key, record: toRecord(row) };
}

export async function listApiKeys(
  prisma: PrismaClient,
  filter: { accountExternalId?: string; includeRevoked?: boolean } = {},
): Promise<ApiKeyRecord[]> {
  const rows = await prisma.apiKey.findMany({
    where: {
      ...(filter.accountExternalId ? { account: { externalId: filter.accountExternalId } } : {}),
      ...(filter.includeRevoked ? {} : { revokedAt: null }),
    },
    include: withAccount,
    orderBy: { id: 'asc' },
  });
  return rows.map(toRecord);
}

/** Keys by id (node lookups for the web app), in the order asked; null for a missing one. */
export async function apiKeysByIds(
  prisma: PrismaClient,
  ids: readonly number[],
): Promise<Array<ApiKeyRecord | null>> {
  const rows = await prisma.apiKey.findMany({
    where: { id: { in: ids.filter((id) => Number.isSafeInteger(id)) } },
    include: withAccount,
  });
  const byId = new Map(rows.map((row) => [row.id, toRecord(row)]));
  return ids.map((id) => byId.get(id) ?? null);
}

/**
 * Revokes one key, named by its id or its displayed prefix (which must then name exactly one live
 * key). With accountExternalId, only that account's keys can be named. Revoking twice is harmless.
 */
export async function revokeApiKey(
  prisma: PrismaClient,
  idOrPrefix: string | number,
  scope: { accountExternalId?: string } = {},
): Promise<ApiKeyRecord> {
  const owner = scope.accountExternalId ? { account: { externalId: scope.accountExternalId } } : {};
  const asId =
    typeof idOrPrefix === 'number'
      ? idOrPrefix
      : /^\d+$/.test(idOrPrefix)
        ? Number(idOrPrefix)
        : undefined;
  const candidates = await prisma.apiKey.findMany({
    where:
      asId !== undefined
        ? { id: asId, ...owner }
        : { prefix: String(idOrPrefix), revokedAt: null, ...owner },
    select: { id: true },
    take: 2,
  });
  if (candidates.length === 0)
    throw notFound(`No API key ${idOrPrefix}.`, { key: String(idOrPrefix) });
  if (candidates.length > 1) {
    throw badRequest(`More than one live key starts with ${idOrPrefix}: revoke it by id.`, {
      parameter: 'key',
      rule: 'must name exactly one key',
    });
  }
  const id = candidates[0]!.id;
  await prisma.apiKey.updateMany({
    where: { id, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return toRecord(await prisma.apiKey.findUniqueOrThrow({ where: { id }, include: withAccount }));
}
