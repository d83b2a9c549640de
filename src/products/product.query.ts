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
    description:
      "One product by its store's domain and its handle (GET /v1/products/{domain}/{handle}); null, with not_found at this path, when there is none.",
    args: {
      domain: t.arg.string({
        required: true,
        description: "The store's domain (or URL) the product is sold on.",
        validate: { schema: domainSchema },
      }),
      handle: t.arg.string({
        required: true,
        description: 'The product handle, as in the storefront URL /products/{handle}.',
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
