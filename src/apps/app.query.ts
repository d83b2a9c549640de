// Query.app(slug) (GET /v1/apps/{slug}) and Query.apps(q) (GET /v1/apps).
import { builder } from '../graphql/builder.ts';
import { pageArgs } from '../graphql/page-args.ts';
import { offsetConnection } from '../graphql/pagination.ts';
import { countUpTo, likeContains, queryRows, SqlParams } from '../platform/database/sql.ts';
import { notFound } from '../platform/errors.ts';
import { appBySlug } from './app.loaders.ts';
import { APP_COLUMNS, type AppRecord } from './app.sql.ts';
import { AppConnection, AppRef } from './app.type.ts';
import { rules } from '../access/field-rules.ts';

builder.queryField('app', (t) =>
  t.field({
    extensions: rules({ quota: 'productAppLookups', cache: 'public' }),
    type: AppRef,
    nullable: true,
    description:
      'One app by its app store slug (GET /v1/apps/{slug}); null, with not_found at this path, when the catalog lacks it.',
    args: {
      slug: t.arg.string({
        required: true,
        description: 'The slug: the handle in the app store URL, e.g. judgeme (case-insensitive).',
        validate: {
          type: 'string',
          minLength: [1, { message: 'must not be empty' }],
          maxLength: 200,
        },
      }),
    },
    resolve: async (_root, { slug }, ctx) => {
      const app = await appBySlug(ctx).load(slug.trim().toLowerCase());
      if (!app) throw notFound(`No app ${slug} in the catalog.`, { slug });
      return app;
    },
  }),
);

/** Name match (fuzzy, trigram index on name) or slug substring. */
function appConditions(q: string | null | undefined, params: SqlParams): string {
  if (!q) return '';
  const text = params.add(q.trim());
  return `WHERE (a.name % ${text} OR ${text} <% a.name OR a.slug ILIKE ${params.add(likeContains(q.trim()))})`;
}

builder.queryField('apps', (t) =>
  t.field({
    extensions: rules({ quota: 'productAppLookups', cache: 'public' }),
    type: AppConnection,
    description: 'Apps matching q (closest names first), or all apps by install count.',
    args: {
      ...pageArgs,
      q: t.arg.string({
        description: 'Name (typo-tolerant) or part of the slug; omit to list all apps.',
        validate: {
          type: 'string',
          minLength: [2, { message: 'must be at least 2 characters' }],
          maxLength: 200,
        },
      }),
    },
    resolve: (_root, { q, ...args }, ctx) => {
      const pool = ctx.services.db.read;
      return offsetConnection(
        args,
        ({ offset, limit }) => {
          const params = new SqlParams();
          const where = appConditions(q, params);
          const order = q
            ? `GREATEST(similarity(a.name, ${params.add(q.trim())}), word_similarity(${params.add(q.trim())}, a.name)) DESC, a.install_count DESC, a.id`
            : 'a.install_count DESC, a.name, a.id';
          return queryRows<AppRecord>(
            pool,
            `SELECT ${APP_COLUMNS} FROM apps a ${where} ORDER BY ${order} LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`,
            params.values,
          );
        },
        () => {
          const params = new SqlParams();
          return countUpTo(pool, `apps a ${appConditions(q, params)}`, params.values);
        },
      );
    },
  }),
);
