// Key management for the web app's integrations page: Query.apiKeys and Query.quotaUsage,
// Mutation.mintApiKey and Mutation.revokeApiKey. Only the web app's service credential
// (X-Service-Token = WEB_APP_SERVICE_TOKEN) may call them, on behalf of one of its accounts
// (accountExternalId); the GraphQL plugin refuses anyone else before execution, and each resolver
// checks again, so a missing plugin fails closed.
import { builder } from '../graphql/builder.ts';
import { upperCaseValues } from '../graphql/enums.ts';
import type { GraphqlContext } from '../graphql/context.ts';
import { reasonError, notFound } from '../platform/errors.ts';
import type { Admission, CallerContext } from '../access/admission.ts';
import {
  apiKeysByIds,
  KEY_SCOPES,
  listApiKeys,
  mintApiKey,
  revokeApiKey,
  type ApiKeyRecord,
} from '../access/api-keys.ts';
import { announceKeysChanged } from '../access/authenticate.ts';
import {
  QUOTA_BUCKET_DESCRIPTIONS,
  QUOTA_BUCKETS,
  type AccountPlan,
  type QuotaBucket,
} from '../access/plans.ts';
import { rules } from '../access/field-rules.ts';

function requireWebApp(ctx: GraphqlContext): Admission {
  const { principal, admission } = ctx as GraphqlContext & CallerContext;
  if (principal?.kind !== 'webApp' || !admission) {
    throw reasonError('scope', "Key management is reserved to the web app's service credential.");
  }
  return admission;
}

const AccountPlanEnum = builder.enumType('AccountPlan', {
  description:
    'Plan of a web-app account. API keys need a paid plan: STARTER (49 USD/month) or PRO (149 USD/month).',
  values: upperCaseValues(['free', 'starter', 'pro'], {
    free: 'No API access: minting a key is refused.',
    starter: 'Paid plan, 49 USD/month: API keys with the starter limits.',
    pro: 'Paid plan, 149 USD/month: API keys with the pro limits.',
  }),
});

const QuotaBucketEnum = builder.enumType('QuotaBucket', {
  description: 'Daily quota buckets shared by the web app and the API.',
  values: upperCaseValues(QUOTA_BUCKETS, QUOTA_BUCKET_DESCRIPTIONS),
});

const ApiKeyRef = builder.objectRef<ApiKeyRecord>('ApiKey');

builder.node(ApiKeyRef, {
  // node(id) of a key is the web app's, as apiKeys is: null for any other caller
  extensions: rules({ webAppOnly: true }),
  description: 'An API key, without the key itself (shown once, at minting).',
  id: { resolve: (k) => k.id, parse: (id) => Number(id) },
  loadMany: (ids, ctx) =>
    (ctx as GraphqlContext & CallerContext).principal?.kind === 'webApp'
      ? apiKeysByIds(ctx.services.db.prisma, ids)
      : ids.map(() => null),
  fields: (t) => ({
    apiKeyId: t.exposeInt('id', {
      description: "The key's own number: what revokeApiKey takes (id is the global Node id).",
    }),
    name: t.exposeString('name', {
      nullable: true,
      description: 'The name given at minting, e.g. "production"; null when none was given.',
    }),
    prefix: t.exposeString('prefix', {
      description: 'First characters of the key, to tell keys apart.',
    }),
    scopes: t.exposeStringList('scopes', {
      description:
        'Empty for a user key; signals:read for a partner service key; operations:read for an operator (the operations console).',
    }),
    accountExternalId: t.exposeString('accountExternalId', {
      description: "The web app's id of the account the key belongs to.",
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the key was minted.' }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'To the minute.',
    }),
    revokedAt: t.expose('revokedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the key was revoked; null while it is live.',
    }),
  }),
});

const MintedApiKeyRef = builder
  .objectRef<{ key: string; apiKey: ApiKeyRecord }>('MintedApiKey')
  .implement({
    description: 'A newly minted key: the secret itself, once, and its record.',
    fields: (t) => ({
      key: t.exposeString('key', {
        description: 'The key itself. Shown this once: only its hash is stored.',
      }),
      apiKey: t.field({
        type: ApiKeyRef,
        description: "The key's record, as Query.apiKeys lists it.",
        resolve: (minted) => minted.apiKey,
      }),
    }),
  });

interface BucketUsage {
  bucket: QuotaBucket;
  used: number;
  limit: number;
  resetSeconds: number;
}

const QuotaUsageRef = builder.objectRef<BucketUsage>('QuotaBucketUsage').implement({
  description:
    "Today's (UTC) use of one daily bucket: the web app's and the API's requests together.",
  fields: (t) => ({
    bucket: t.field({
      type: QuotaBucketEnum,
      description: 'The bucket.',
      resolve: (u) => u.bucket,
    }),
    used: t.exposeInt('used', { description: 'Requests counted in the bucket today (UTC).' }),
    limit: t.exposeInt('limit', { description: "Requests the account's plan allows per day." }),
    remaining: t.int({
      description: 'limit - used, never below 0.',
      resolve: (u) => Math.max(0, u.limit - u.used),
    }),
    resetsInSeconds: t.int({
      description: 'Seconds until the bucket renews (UTC midnight).',
      resolve: (u) => u.resetSeconds,
    }),
  }),
});

builder.queryField('apiKeys', (t) =>
  t.field({
    extensions: rules({ webAppOnly: true }),
    type: [ApiKeyRef],
    description: "The account's keys (web app service credential only).",
    args: {
      accountExternalId: t.arg.string({
        required: true,
        description: "The web app's id of the account.",
      }),
      includeRevoked: t.arg.boolean({
        defaultValue: false,
        description: 'Also list revoked keys (with revokedAt set).',
      }),
    },
    resolve: (_root, args, ctx) => {
      requireWebApp(ctx);
      return listApiKeys(ctx.services.db.prisma, {
        accountExternalId: args.accountExternalId,
        includeRevoked: args.includeRevoked ?? false,
      });
    },
  }),
);

builder.queryField('quotaUsage', (t) =>
  t.field({
    extensions: rules({ webAppOnly: true }),
    type: [QuotaUsageRef],
    description: "The account's daily buckets today (web app service credential only).",
    args: {
      accountExternalId: t.arg.string({
        required: true,
        description: "The web app's id of the account.",
      }),
    },
    resolve: async (_root, { accountExternalId }, ctx) => {
      const admission = requireWebApp(ctx);
      const account = await ctx.services.db.prisma.account.findUnique({
        where: { externalId: accountExternalId },
      });
      if (!account)
        throw notFound(`No account ${accountExternalId} has used the API.`, { accountExternalId });
      return admission.quotas.accountUsage(accountExternalId, admission.quotas.plans[account.plan]);
    },
  }),
);

const MintApiKeyInput = builder.inputType('MintApiKeyInput', {
  description: 'The account a key is minted for and how the key is named and scoped.',
  fields: (t) => ({
    accountExternalId: t.string({
      required: true,
      description: "The web app's id of the account.",
    }),
    plan: t.field({
      type: AccountPlanEnum,
      required: true,
      description: "The account's current plan; free is refused.",
    }),
    accountName: t.string({ description: 'Display name of the account.' }),
    name: t.string({ description: 'A name for the key, e.g. "production".' }),
    scopes: t.stringList({
      description: `Scopes: ${KEY_SCOPES.join(', ')} (a partner service key, an operator). Empty for a user key.`,
    }),
  }),
});

builder.mutationField('mintApiKey', (t) =>
  t.field({
    extensions: rules({ webAppOnly: true }),
    type: MintedApiKeyRef,
    description:
      'Mints a key for an account on a paid plan (web app service credential only). A free account is refused ' +
      'with unauthorized (details.reason plan). The key is in the answer once; only its hash is stored.',
    args: {
      input: t.arg({
        type: MintApiKeyInput,
        required: true,
        description: "The account, its plan and the new key's name and scopes.",
      }),
    },
    resolve: async (_root, { input }, ctx) => {
      requireWebApp(ctx);
      const minted = await mintApiKey(ctx.services.db.prisma, {
        accountExternalId: input.accountExternalId,
        plan: input.plan as AccountPlan,
        accountName: input.accountName ?? undefined,
        name: input.name ?? undefined,
        scopes: input.scopes ?? [],
      });
      // minting may change the account's plan, which its other keys' cached principals carry
      await announceKeysChanged(ctx.services.pubsub, ctx.services.logger);
      return { key: minted.key, apiKey: minted.record };
    },
  }),
);

builder.mutationField('revokeApiKey', (t) =>
  t.field({
    extensions: rules({ webAppOnly: true }),
    type: ApiKeyRef,
    description:
      "Revokes one of the account's keys at once (web app service credential only). Revoking twice is harmless.",
    args: {
      accountExternalId: t.arg.string({
        required: true,
        description: "The web app's id of the account.",
      }),
      id: t.arg.int({ required: true, description: 'The key to revoke: ApiKey.apiKeyId.' }),
    },
    resolve: async (_root, { accountExternalId, id }, ctx) => {
      requireWebApp(ctx);
      const revoked = await revokeApiKey(ctx.services.db.prisma, id, { accountExternalId });
      await announceKeysChanged(ctx.services.pubsub, ctx.services.logger);
      return revoked;
    },
  }),
);
