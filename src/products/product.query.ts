// Query.product(domain, handle): one product (GET /v1/products/{domain}/{handle}).
import { builder } from '../graphql/builder.ts';
import { notFound } from '../platform/errors.ts';
import { domainSchema } from '../stores/domain.ts';
import { productByDomainHandle } from './product.loaders.ts';
import { ProductRef } from './product.type.ts';
import { rules } from '../access/field-rules.ts';

builder.queryField('product', (t) =>
  t.field({
    extensions: rules({ quota: 'productAppLookups', cache: 'public' }),
    type: ProductRef,
    nullable: true,
    args: {
      domain: t.arg.string({ required: true, validate: { schema: domainSchema } }),
      handle: t.arg.string({
        required: true,
        validate: {
          type: 'string',
          minLength: [1, { message: 'must not be empty' }],
          maxLength: 255,
        },
      }),
    },
    resolve: async (_root, { domain, handle }, ctx) => {
      const product = await productByDomainHandle(ctx).load({ domain, handle });
      if (!product) throw notFound(`No product ${handle} on ${domain}.`, { domain, handle });
      return product;
    },
  }),
);
